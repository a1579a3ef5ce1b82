package frames

import (
	"encoding/json"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// The MCP frame exercises: the handshake, the two kinds of error, and
// version negotiation. Each is judged inside one MCP session (over
// mcp-stdio, one run of the server; over mcp-http, one Mcp-Session-Id),
// since the handshake of one session says nothing about another.

// session is the handshake of one MCP session, found in the transcript.
type session struct {
	key   string
	msgs  []message // the session's messages, in order
	init  int       // the initialize answered with a result, or -1
	ready int       // notifications/initialized after it, or -1
}

// sessions splits the MCP messages by session, in the order the
// sessions began, and finds each one's handshake.
func sessions(events []Event) []session {
	var out []session
	at := map[string]int{}
	for _, m := range mcpMessages(events) {
		if m.session == "" {
			continue // over HTTP without a session: refused, and in none
		}
		i, ok := at[m.session]
		if !ok {
			i = len(out)
			at[m.session] = i
			out = append(out, session{key: m.session, init: -1, ready: -1})
		}
		out[i].msgs = append(out[i].msgs, m)
	}
	for i := range out {
		s := &out[i]
		s.init = s.find(0, func(m message) bool { return m.method == "initialize" && m.result != nil })
		if s.init >= 0 {
			s.ready = s.find(s.init+1, accepted)
		}
	}
	return out
}

// accepted reports whether m is notifications/initialized, sent as a
// notification and taken: over HTTP the server says 202; over stdio
// nothing answers a notification.
func accepted(m message) bool {
	return m.method == "notifications/initialized" && m.id == "" && (m.target == "mcp-stdio" || m.status == 202)
}

// find is the index of the first message from i on that satisfies ok,
// or -1.
func (s session) find(i int, ok func(message) bool) int {
	for ; i >= 0 && i < len(s.msgs); i++ {
		if ok(s.msgs[i]) {
			return i
		}
	}
	return -1
}

// where names the session for a learner.
func (s session) where() exercises.Text {
	if strings.HasPrefix(s.key, "stdio-") {
		return text("on mcp-stdio", "на mcp-stdio")
	}
	return text("on mcp-http, session %s", "на mcp-http, сессия %s", s.key)
}

// best is the session that got furthest by score, the later one on a
// tie; ok is false when there is no session at all.
func best(ss []session, score func(session) int) (session, bool) {
	var b session
	top := -1
	for _, s := range ss {
		if n := score(s); n >= top {
			b, top = s, n
		}
	}
	return b, top >= 0
}

// readiness judges the first two steps every MCP exercise shares: the
// initialize answered, and notifications/initialized after it.
func readiness(s session, found bool, all []message) (Step, Step) {
	initName := text("Send initialize and get a result", "Отправьте initialize и получите result")
	readyName := text("Then send notifications/initialized, with no id", "Затем отправьте notifications/initialized, без id")
	if !found {
		return missing(initName, text("No MCP message yet. Open /console/mcp and send initialize to mcp-stdio or mcp-http.",
			"MCP-сообщений пока не было. Откройте /console/mcp и отправьте initialize на mcp-stdio или mcp-http.")), waiting(readyName)
	}
	if s.init < 0 {
		detail := text("The session has no initialize answered with a result yet.", "В сессии пока нет initialize, на который пришёл result.")
		if i := s.find(0, func(m message) bool { return m.method == "initialize" }); i >= 0 {
			detail = text("initialize got %s.", "Ответ на initialize: %s.", s.msgs[i].describe())
		}
		return missing(initName, detail), waiting(readyName)
	}
	in := s.msgs[s.init]
	opened := done(initName, text("initialize %s was answered: protocolVersion %s.", "initialize %s получил ответ: protocolVersion %s.",
		s.where(), in.resultString("protocolVersion")))
	if s.ready >= 0 {
		how := text("nothing answers a notification, and nothing did", "на уведомление не отвечают, и ответа не было")
		if s.msgs[s.ready].target == "mcp-http" {
			how = text("the server took it with 202 Accepted and no body", "сервер принял его с 202 Accepted и без тела")
		}
		return opened, done(readyName, text("notifications/initialized was sent; %s.", "notifications/initialized отправлено; %s.", how))
	}
	detail := text("After initialize, the session has no notifications/initialized: the server answers, but the client never said it is ready.",
		"После initialize в сессии нет notifications/initialized: сервер отвечает, но клиент так и не сообщил, что готов.")
	for _, m := range all {
		if m.method != "notifications/initialized" || m.seq <= in.seq {
			continue
		}
		switch {
		case m.id != "":
			detail = text("Your notifications/initialized carries an id, which makes it a request. A notification has no id.",
				"У вашего notifications/initialized есть id, и это делает его запросом. У уведомления id нет.")
		case m.session != s.key:
			detail = text("notifications/initialized went to another session: after a restart, or without the Mcp-Session-Id that initialize gave.",
				"notifications/initialized ушло в другую сессию: после перезапуска или без Mcp-Session-Id, который выдал initialize.")
		case m.status != 0:
			detail = text("notifications/initialized got HTTP %d: %s.", "notifications/initialized получило HTTP %d: %s.", m.status, m.describe())
		}
	}
	return opened, missing(readyName, detail)
}

func checkMCPHandshake(events []Event) []Step {
	ss := sessions(events)
	// progress finds tools/list after the handshake, and the word_count
	// call after that; -1 for what is not there yet.
	progress := func(s session) (int, int) {
		l := s.find(max(s.ready+1, 0), func(m message) bool { return m.method == "tools/list" && m.result != nil })
		c := s.find(max(l+1, 0), func(m message) bool {
			return m.method == "tools/call" && m.param("name") == "word_count" && m.result != nil && !m.isError()
		})
		if s.ready < 0 {
			l, c = -1, -1
		}
		if l < 0 {
			c = -1
		}
		return l, c
	}
	s, found := best(ss, func(s session) int {
		l, c := progress(s)
		return count(s.init >= 0, s.ready >= 0, l >= 0, c >= 0)
	})
	list, call := progress(s)
	all := mcpMessages(events)
	first, second := readiness(s, found, all)
	steps := []Step{first, second}

	listName := text("Then tools/list, with an id of its own", "Затем tools/list, со своим id")
	callName := text("Then tools/call of word_count", "Затем tools/call для word_count")
	if !second.Done {
		return append(steps, waiting(listName), waiting(callName))
	}
	if list < 0 {
		detail := text("No tools/list answered with a result since notifications/initialized.",
			"После notifications/initialized не было tools/list, на который пришёл result.")
		if i := s.find(s.ready+1, func(m message) bool { return m.method == "tools/list" }); i >= 0 {
			detail = text("tools/list got %s.", "Ответ на tools/list: %s.", s.msgs[i].describe())
		}
		return append(steps, missing(listName, detail), waiting(callName))
	}
	steps = append(steps, done(listName, text("tools/list answered with the tools: %s.", "tools/list ответил списком инструментов: %s.",
		strings.Join(toolNames(s.msgs[list].result), ", "))))
	if call < 0 {
		detail := text("No tools/call of word_count answered with a result since tools/list.",
			"После tools/list не было tools/call для word_count, на который пришёл result.")
		if i := s.find(list+1, func(m message) bool { return m.method == "tools/call" }); i >= 0 {
			detail = text("tools/call of %q got %s.", "Ответ на tools/call для %q: %s.", s.msgs[i].param("name"), s.msgs[i].describe())
		}
		return append(steps, missing(callName, detail))
	}
	return append(steps, done(callName, text("tools/call word_count was answered with the result %s.", "На tools/call word_count пришёл result %s.",
		short(string(s.msgs[call].result)))))
}

// toolNames lists the tools of a tools/list result.
func toolNames(result json.RawMessage) []string {
	var r struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(result, &r)
	var names []string
	for _, t := range r.Tools {
		names = append(names, t.Name)
	}
	return names
}

// count counts the true ones.
func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// mcpInitialize is the initialize the solutions start with, asking for
// a revision.
func mcpInitialize(version string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"console","version":"1"}}}`
}

const mcpInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

func mcpHandshakeSolution() []Frame {
	return []Frame{
		{Target: "mcp-stdio", Text: mcpInitialize("2025-11-25")},
		{Target: "mcp-stdio", Text: mcpInitialized},
		{Target: "mcp-stdio", Text: `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`},
		{Target: "mcp-stdio", Text: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`},
	}
}
