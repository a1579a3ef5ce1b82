// Package tapcheck checks a recording of MCP traffic (package tap)
// message by message, against the rules of the specification that a
// schema cannot express, and warns of what a hostile server does to a
// model.
//
// It lives beside the tap, not in protocols/mcp: it teaches nothing
// about speaking MCP, only about reading other people's MCP, and it
// must judge any peer, including ones that break every rule
// protocols/mcp keeps.
//
// Each JSON-RPC message found in a recording (a line of stdin or stdout;
// an HTTP body or an event of a stream) is numbered by the event that
// holds it, tagged with its era (a 2025-11-25 session, or a 2026-07-28
// request that carries its own revision in _meta), and checked in the
// context of its conversation: the one stdio pipe, or one HTTP session
// (Mcp-Session-Id); a request without a session is a conversation of its
// own. Findings carry a code, the event's number, a severity, the
// specifics, and an explanation in English and in Russian (rules.go).
// Some findings are about what never came: a request still waiting
// when the stdio server exits, when the HTTP exchange that carried it
// ends, or when the recording does (pending.go); and the revision a
// session speaks is judged by the answer to initialize and the host's
// next message (version.go).
// The specifics come in both languages too: Detail in English, DetailRU
// (detail_ru in JSON) in Russian, the protocol's words left as on the
// wire in each.
package tapcheck
