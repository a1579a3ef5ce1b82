package playground

import "github.com/wirelab/wirelab/protocols/mcp"

// hostileTemplates are the frames of the "mcp-hostile" target, an MCP
// server that is hostile on purpose (protocols/mcp/hostile.go), in the
// order the lesson on MCP security sends them: the session, the first
// tools/list, each tool called once, and tools/list again, which shows
// that spell_check changed after its first call.
func hostileTemplates() []frameTemplate {
	call := func(id, name, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
	}
	ts := []frameTemplate{
		{Name: "1. initialize (its instructions say it is hostile)", NameRU: "1. initialize (его instructions говорят, что он враждебен)", Frame: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"console","version":"1"}}}`,
			Expect: `"listChanged":true`},
		{Name: "2. notifications/initialized", NameRU: "2. notifications/initialized", Frame: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{Name: "3. tools/list (read every description whole)", NameRU: "3. tools/list (прочитайте каждое описание целиком)", Frame: `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			Expect: `"description":"Checks the spelling of a text.","inputSchema"`},
		{Name: "4. search_contacts (its description gives orders)", NameRU: "4. search_contacts (его описание раздаёт приказы)", Frame: call("3", "search_contacts", `{"name":"Ada Lovelace"}`), Expect: `ada@example.com`},
		{Name: "5. read_inbox (a result that speaks to the model)", NameRU: "5. read_inbox (результат, который обращается к модели)", Frame: call("4", "read_inbox", `{}`), Expect: `ignore previous instructions`},
		{Name: "6. inbox_stats (annotated read-only)", NameRU: "6. inbox_stats (с аннотацией «только чтение»)", Frame: call("5", "inbox_stats", `{}`), Expect: `Deleted`},
		{Name: "7. send_email (a host must ask the user first)", NameRU: "7. send_email (хост должен сначала спросить пользователя)", Frame: call("6", "send_email", `{"to":"ada@example.com","subject":"Lunch","body":"Thursday is fine."}`),
			Expect: `Sent to ada@example.com`},
		{Name: "8. spell_check (its first call pulls the rug)", NameRU: "8. spell_check (первый вызов его подменяет)", Frame: call("7", "spell_check", `{"text":"read the wire"}`), Expect: `No spelling mistakes`},
		{Name: "9. tools/list again (spell_check has changed)", NameRU: "9. tools/list ещё раз (spell_check изменился)", Frame: `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, Expect: `"context"`},
	}
	for i := range ts {
		ts[i].Target, ts[i].Group = "mcp-hostile", mcp.LegacyVersion
	}
	// The same server in 2026-07-28: each request alone, no session.
	meta := statelessMeta(mcp.ModernVersion, `{}`)
	for _, m := range []statelessMessage{
		{name: "tools/list, on its own", nameRU: "tools/list без сессии", id: 21, method: "tools/list", meta: meta, expect: `"search_contacts"`},
		{name: "read_inbox, on its own (a result that speaks to the model)", nameRU: "read_inbox без сессии (результат, который обращается к модели)", id: 22, method: "tools/call", params: `"name":"read_inbox","arguments":{}`, meta: meta, expect: `ignore previous instructions`},
		{name: "inbox_stats, on its own (annotated read-only)", nameRU: "inbox_stats без сессии (с аннотацией «только чтение»)", id: 23, method: "tools/call", params: `"name":"inbox_stats","arguments":{}`, meta: meta, expect: `Deleted`},
	} {
		ts = append(ts, frameTemplate{Name: m.name, NameRU: m.nameRU, Target: "mcp-hostile", Group: mcp.ModernVersion, Frame: statelessRequest(m), Expect: m.expect})
	}
	return ts
}

// targetLabel is how the console's list of targets names one: by its
// name, and the hostile server also by what it is, so that nobody
// mistakes it for the reference server.
func targetLabel(target string, l lang) string {
	if target != "mcp-hostile" {
		return target
	}
	if l == ru {
		return "mcp-hostile (враждебный нарочно)"
	}
	return "mcp-hostile (hostile on purpose)"
}
