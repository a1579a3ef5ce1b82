package frames

import (
	"encoding/json"
	"slices"
	"strings"
)

// frames-mcp-stateless: revision 2026-07-28 has no session. A request
// carries its revision and the client's capabilities in params._meta,
// and the server answers it on its own, with no initialize before it;
// server/discover says what the server speaks; and a request that breaks
// the revision's rules is refused in its terms: -32602 for a missing
// _meta field, -32022 for a revision the server does not serve.
//
// The steps may come in any order, since no request depends on another:
// that is what the exercise shows. They are judged on mcp-stdio, where a
// session is one run of the server; over mcp-http a 2026-07-28 request
// also needs its headers, which lesson 11 covers.

// statelessRevision is the revision the exercise is about.
const statelessRevision = "2026-07-28"

// The _meta keys a 2026-07-28 request must carry.
const (
	keyProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	keyClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// requestMeta is what a request's params._meta says about its era.
type requestMeta struct {
	version    string // its protocolVersion, "" when it has none
	hasVersion bool   // the protocolVersion key is there, whatever its value
	caps       bool   // it has clientCapabilities, and they are an object
	hasCaps    bool   // the clientCapabilities key is there
}

func metaOf(m message) requestMeta {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	json.Unmarshal(m.params, &p)
	var r requestMeta
	if v, ok := p.Meta[keyProtocolVersion]; ok {
		r.hasVersion = true
		json.Unmarshal(v, &r.version)
	}
	if c, ok := p.Meta[keyClientCapabilities]; ok {
		var obj map[string]json.RawMessage
		r.hasCaps, r.caps = true, json.Unmarshal(c, &obj) == nil && obj != nil
	}
	return r
}

// modern reports whether the request says it is from the 2026-07-28 era,
// rightly or not: its _meta has one of the era's keys, or it is
// server/discover, which only that era has.
func (r requestMeta) modern(method string) bool {
	return r.hasVersion || r.hasCaps || method == "server/discover"
}

// missingKey names the required _meta key the request lacks, or "".
func (r requestMeta) missingKey() string {
	switch {
	case r.version == "":
		return keyProtocolVersion
	case !r.caps:
		return keyClientCapabilities
	}
	return ""
}

// afterInitialize reports whether an initialize was answered with a
// result earlier in m's session: on mcp-stdio, the same run of the
// server.
func afterInitialize(msgs []message, m message) bool {
	return slices.ContainsFunc(msgs, func(o message) bool {
		return o.session == m.session && o.seq < m.seq && o.method == "initialize" && o.result != nil
	})
}

// resultType reads the result's resultType.
func (m message) resultType() string { return m.resultString("resultType") }

// errorData reads a member of the error's data as JSON, "" if it has none.
func (m message) errorData(name string) string {
	var d map[string]json.RawMessage
	if m.err == nil || json.Unmarshal(m.err.Data, &d) != nil || d[name] == nil {
		return ""
	}
	return string(d[name])
}

func checkMCPStateless(events []Event) []Step {
	all := mcpMessages(events)
	var msgs []message
	for _, m := range all {
		if m.target == "mcp-stdio" {
			msgs = append(msgs, m)
		}
	}
	overHTTP := len(all) > len(msgs)
	return []Step{statelessCall(msgs, overHTTP), statelessDiscover(msgs), statelessRefusal(msgs)}
}

// statelessCall judges the word_count call: 2026-07-28 in its _meta,
// answered with a complete result, and no initialize before it.
func statelessCall(msgs []message, overHTTP bool) Step {
	name := text("Call word_count with revision 2026-07-28 in params._meta, and no initialize before it",
		"Вызовите word_count с редакцией 2026-07-28 в params._meta и без initialize перед ним")
	// refused gathers the calls refused by the revision's rules. They may
	// be the learner's answer to the last step, so they are named here
	// only when nothing else is.
	var n, refused notes
	for _, m := range msgs {
		if m.method != "tools/call" {
			continue
		}
		meta := metaOf(m)
		opened := afterInitialize(msgs, m)
		switch {
		case !meta.hasVersion && m.result != nil:
			n.add(text("A tools/call without _meta was answered in the 2025-11-25 session that your initialize opened: it relied on the session. Restart the server on mcp-stdio and send the call with the revision in params._meta, and no initialize first.",
				"tools/call без _meta получил ответ в сессии 2025-11-25, которую открыл ваш initialize: он опирался на сессию. Перезапустите сервер на mcp-stdio и отправьте вызов с редакцией в params._meta, без initialize перед ним."))
		case !meta.hasVersion && m.err != nil:
			n.add(text("This tools/call has no _meta.%s, so the server took it for the legacy era, where a session starts with initialize, and answered %s. Put the revision in params._meta.",
				"У этого tools/call нет _meta.%s, поэтому сервер принял его за запрос старой эпохи, где сессия начинается с initialize, и ответил: %s. Укажите редакцию в params._meta.", keyProtocolVersion, m.describe()))
		case strings.HasPrefix(meta.version, "2025-") && m.err != nil:
			refused.add(text("This tools/call names %q in its _meta, a revision with sessions, which is opened with initialize and never named per request; the server answered %s. Per request it serves %s: ask for 2026-07-28.",
				"Этот tools/call называет в _meta редакцию %q — редакцию с сессиями, которую открывают через initialize и никогда не указывают в запросе; сервер ответил: %s. По запросам он обслуживает %s: попросите 2026-07-28.", meta.version, m.describe(), orUnknown(m.errorData("supported"))))
		case meta.version != statelessRevision && m.err != nil:
			refused.add(text("This tools/call asks for revision %q in its _meta, and the server answered %s; per request it serves %s. Ask for 2026-07-28.",
				"Этот tools/call просит в _meta редакцию %q, и сервер ответил: %s; по запросам он обслуживает %s. Попросите 2026-07-28.", meta.version, m.describe(), orUnknown(m.errorData("supported"))))
		case !meta.caps && m.err != nil:
			refused.add(text("This tools/call names 2026-07-28 but its _meta has no %s (an object, {} when the client offers nothing), so the server refused it: %s. That refusal counts for the last step; for this one, add the key.",
				"Этот tools/call называет 2026-07-28, но в его _meta нет %s (объекта, {}, если клиент ничего не предлагает), и сервер отказал: %s. Этот отказ засчитан в последнем шаге; для этого шага добавьте ключ.", keyClientCapabilities, m.describe()))
		case m.param("name") != "word_count":
			n.add(text("tools/call of %q got %s. Call word_count.", "Ответ на tools/call для %q: %s. Вызовите word_count.", m.param("name"), m.describe()))
		case m.result != nil && m.isError():
			n.add(text("word_count refused its arguments: %s It takes {\"text\": \"...\"}.", "word_count отказался от аргументов: %s Он принимает {\"text\": \"...\"}.", sentence(contentText(m))))
		case m.result != nil && opened:
			n.add(text("Your 2026-07-28 tools/call was answered, but initialize came first in that run of the server, so it does not show that none is needed. Restart the server on mcp-stdio and send the call before anything else.",
				"Ваш tools/call с 2026-07-28 получил ответ, но в этом запуске сервера первым был initialize, и вызов не показывает, что он не нужен. Перезапустите сервер на mcp-stdio и отправьте вызов первым."))
		case m.result != nil && m.resultType() == "complete":
			return done(name, text("tools/call of word_count, revision 2026-07-28 in its _meta and no initialize before it, was answered on its own: structuredContent %s, resultType complete.",
				"tools/call для word_count с редакцией 2026-07-28 в _meta и без initialize перед ним получил ответ сам по себе: structuredContent %s, resultType complete.", short(resultMember(m, "structuredContent"))))
		default:
			n.add(text("tools/call of word_count got %s.", "Ответ на tools/call для word_count: %s.", m.describe()))
		}
	}
	if len(n) == 0 {
		n = refused
	}
	if overHTTP && len(n) == 0 {
		n.add(text("This exercise is done on mcp-stdio: over mcp-http a 2026-07-28 request also carries headers that repeat its body. Send the call to mcp-stdio.",
			"Это упражнение выполняется на mcp-stdio: по mcp-http запрос 2026-07-28 несёт ещё и заголовки, повторяющие тело. Отправьте вызов на mcp-stdio."))
	}
	return missing(name, n.or(text(`No tools/call on mcp-stdio yet. Open /console/mcp and send one of word_count, with no initialize before it and params._meta holding "%s": "2026-07-28" and "%s": {}.`,
		`На mcp-stdio пока не было tools/call. Откройте /console/mcp и отправьте вызов word_count без initialize перед ним, с params._meta, где "%s": "2026-07-28" и "%s": {}.`, keyProtocolVersion, keyClientCapabilities)))
}

// statelessDiscover judges server/discover: answered with the revisions
// the server speaks.
func statelessDiscover(msgs []message) Step {
	name := text("Ask server/discover what the server speaks", "Спросите server/discover, что умеет сервер")
	var n notes
	for _, m := range msgs {
		if m.method != "server/discover" {
			continue
		}
		if m.result != nil && resultMember(m, "supportedVersions") != "" {
			return done(name, text("server/discover answered with no session: supportedVersions %s, capabilities %s, resultType %s.",
				"server/discover ответил без всякой сессии: supportedVersions %s, capabilities %s, resultType %s.",
				resultMember(m, "supportedVersions"), short(resultMember(m, "capabilities")), m.resultType()))
		}
		if missingKey := metaOf(m).missingKey(); m.err != nil && missingKey != "" {
			n.add(text("server/discover got %s: it is a 2026-07-28 request too, and its _meta needs %s.",
				"Ответ на server/discover: %s. Это тоже запрос 2026-07-28, и в его _meta нужен %s.", m.describe(), missingKey))
			continue
		}
		n.add(text("server/discover got %s.", "Ответ на server/discover: %s.", m.describe()))
	}
	return missing(name, n.or(text("No server/discover on mcp-stdio yet. Send it with params that hold only the _meta of a 2026-07-28 request.",
		"На mcp-stdio пока не было server/discover. Отправьте его с params, где есть только _meta запроса 2026-07-28.")))
}

// statelessRefusal judges a refusal by the revision's own rules: -32022
// for a revision the server does not serve, or -32602 for a request that
// says it is from 2026-07-28 and lacks a field its _meta must have.
func statelessRefusal(msgs []message) Step {
	name := text("Get a request refused by the 2026-07-28 rules: -32602 for a missing _meta field, or -32022 for a revision the server does not serve",
		"Получите отказ по правилам 2026-07-28: -32602 за недостающее поле _meta или -32022 за редакцию, которую сервер не обслуживает")
	var n notes
	for _, m := range msgs {
		if m.id == "" || m.err == nil {
			continue
		}
		meta := metaOf(m)
		switch {
		case m.err.Code == -32022:
			return done(name, text("%s asking for revision %q was refused with -32022, and error.data lists what the server serves per request: %s. A client retries with one of those.",
				"%s с редакцией %q получил отказ -32022, а error.data перечисляет, что сервер обслуживает по запросам: %s. Клиент повторяет запрос с одной из них.",
				m.method, meta.version, orUnknown(m.errorData("supported"))))
		case m.err.Code == -32602 && meta.modern(m.method) && meta.missingKey() != "":
			return done(name, text("%s without %s in its _meta was refused with -32602: a 2026-07-28 request that lacks a required field is malformed, and nothing ran.",
				"%s без %s в _meta получил отказ -32602: запрос 2026-07-28 без обязательного поля составлен неверно, и ничего не выполнялось.",
				m.method, meta.missingKey()))
		case !meta.modern(m.method):
			n.add(text("%s got %s: with no revision in its _meta, the server judged it by the 2025-11-25 rules. Refuse by the 2026-07-28 ones instead.",
				"Ответ на %s: %s. Без редакции в _meta сервер судил его по правилам 2025-11-25. Добейтесь отказа по правилам 2026-07-28.", m.method, m.describe()))
		case m.err.Code == -32601:
			n.add(text("%s got -32601: 2026-07-28 has no such method, true, but that is plain JSON-RPC. Make the server refuse by the revision's own rules.",
				"Ответ на %s: -32601. В 2026-07-28 такого метода нет, верно, но это обычный JSON-RPC. Добейтесь отказа по собственным правилам редакции.", m.method))
		default:
			n.add(text("%s got %s: its _meta was complete, so that refusal is about its params, not the revision's rules.",
				"Ответ на %s: %s. Его _meta был полным, так что отказ касается params, а не правил редакции.", m.method, m.describe()))
		}
	}
	return missing(name, n.or(text("No 2026-07-28 request refused yet. Leave %s out of a request's _meta (-32602), or ask for a revision the server does not serve, such as 2099-01-01 (-32022).",
		"Ни один запрос 2026-07-28 пока не получил отказа. Уберите %s из _meta запроса (-32602) или попросите редакцию, которую сервер не обслуживает, например 2099-01-01 (-32022).", keyClientCapabilities)))
}

// resultMember is one member of the result as compact JSON, "" if the
// result has none.
func resultMember(m message, name string) string {
	var r map[string]json.RawMessage
	if json.Unmarshal(m.result, &r) != nil || r[name] == nil {
		return ""
	}
	return strings.Join(strings.Fields(string(r[name])), "")
}

// orUnknown is s, or a question mark for nothing: a server's error data
// that lists no revisions.
func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// statelessMeta is the _meta of the solution's requests, asking for
// version.
func statelessMeta(version string) string {
	return `"_meta":{"` + keyProtocolVersion + `":"` + version + `","io.modelcontextprotocol/clientInfo":{"name":"console","version":"1"},"` + keyClientCapabilities + `":{}}`
}

func mcpStatelessSolution() []Frame {
	call := func(id, version string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"},` + statelessMeta(version) + `}}`
	}
	return []Frame{
		{Target: "mcp-stdio", Text: call("1", statelessRevision)},
		{Target: "mcp-stdio", Text: `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{` + statelessMeta(statelessRevision) + `}}`},
		{Target: "mcp-stdio", Text: call("3", "2099-01-01")},
	}
}
