package grade

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// MCPDual grades the mcp-dual exercise: an MCP server over stdio that
// serves both eras, a 2025-11-25 session opened by initialize and
// 2026-07-28 requests that each carry their revision and the client's
// capabilities in params._meta, with no session at all.
func MCPDual() *Grader {
	return &Grader{
		Exercise: "mcp-dual",
		Stages: []Stage{
			{Name: "keeps the 2025-11-25 session", Run: dualLegacy},
			{Name: "serves 2026-07-28 requests without initialize", Run: dualModern},
			{Name: "answers server/discover", Run: dualDiscover},
			{Name: "refuses a request missing its _meta", Run: dualMissingMeta},
			{Name: "refuses a revision it does not serve", Run: dualUnsupported},
			{Name: "leaves ping and logging/setLevel to 2025-11-25", Run: dualRemovedMethods},
			{Name: "judges every request on its own", Run: dualStateless},
			{Name: "never answers a notification", Run: dualNotifications},
		},
	}
}

const (
	hintModernNoInit = `A request whose params._meta names io.modelcontextprotocol/protocolVersion comes from the 2026-07-28 era, which has no initialize: serve it on its own, with the revision and capabilities its _meta gives. Only a request without that _meta belongs to the 2025-11-25 session.`
	hintResultType   = `Every 2026-07-28 result says what it is: "resultType": "complete" beside its own members (tools, content...), since a result may also be "input_required". A 2025-11-25 client reads results without it.`
	hintDiscover     = `server/discover tells a client, before any other request, what the server speaks: answer it with "supportedVersions" (2026-07-28 among them), "capabilities" as initialize's result has them ({"tools":{}}), and "resultType": "complete".`
	hintMissingMeta  = `A 2026-07-28 request must carry io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities in params._meta ({} when the client offers nothing). One that lacks either is malformed: answer -32602 (invalid params) and run nothing. server/discover exists only in 2026-07-28, so it needs them too.`
	hintUnsupported  = `A revision the server does not serve is refused, not guessed at: answer -32022 with "data": {"supported": [the revisions you speak], "requested": the one asked for}, so that the client can retry with one from the list.`
	hintRemoved      = `ping and logging/setLevel are gone from 2026-07-28 (a client sets the log level per request, in _meta): a modern request for them is an unknown method, -32601. In the 2025-11-25 era they still work, ping even before initialize.`
	hintRemembers    = `Nothing a 2026-07-28 request said carries over to the next: "Servers MUST NOT rely on prior requests over the same connection to establish context." Check each request's own _meta, every time.`
	hintNoSession    = `A 2026-07-28 request opens no session and closes none: a request without _meta still belongs to the 2025-11-25 era, which starts with initialize, in the same process. Only initialize changes the legacy session's state.`
)

// dualMeta is the params._meta of a 2026-07-28 request asking for
// version: the revision and the client's capabilities, which every
// request must carry, and who the client is, which it should.
func dualMeta(version string) string {
	return fmt.Sprintf(`"_meta":{"io.modelcontextprotocol/protocolVersion":%q,"io.modelcontextprotocol/clientInfo":{"name":"wirelab-grader","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`, version)
}

// dualRequest is a request whose params are fields (members without
// braces, or "") followed by meta ("" for no _meta at all).
func dualRequest(id, method, fields, meta string) string {
	params := strings.Trim(fields+","+meta, ",")
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q}`, id, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{%s}}`, id, method, params)
}

// modern is a 2026-07-28 request with a full _meta.
func modern(id, method, fields string) string {
	return dualRequest(id, method, fields, dualMeta("2026-07-28"))
}

// The word_count call, its arguments and its answer as both eras want
// it: a 2026-07-28 result adds resultType.
const (
	dualCallArgs   = `"name":"word_count","arguments":{"text":"read the wire"}`
	dualCallResult = `"content":[{"type":"text","text":"<string>"}],"structuredContent":{"words":3,"chars":13}`
)

// dualModernCall is a 2026-07-28 word_count call, and its answer.
func dualModernCall(id string) (send, want string) {
	return modern(id, "tools/call", dualCallArgs),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{%s,"resultType":"complete"}}`, id, dualCallResult)
}

// expectModern sends a 2026-07-28 request that must succeed and checks
// its answer against want (as ExpectSubset does), with a hint for the
// era's two classic mistakes: refusing it for want of initialize, and a
// result without resultType.
func expectModern(p *Process, what, send, want string) ([]byte, error) {
	got, err := p.Call(what, send)
	if err != nil {
		return nil, err
	}
	f := CompareJSON(got, want, Subset)
	switch {
	case f == nil:
		return got, nil
	case Field(got, "error") != nil:
		WithHint(f, hintModernNoInit)
	case Field(got, "result") != nil && Field(got, "result", "resultType") == nil:
		WithHint(f, hintResultType)
	}
	return nil, About(f, what, send)
}

// expectRefused sends a request that must be refused with a JSON-RPC
// error of code, and nothing else: no result, since the request must not
// run.
func expectRefused(p *Process, what, send, id string, code int, hint string) ([]byte, error) {
	got, err := p.Call(what, send)
	if err != nil {
		return nil, err
	}
	wantCode := AnyNumber
	if code != codeAny {
		wantCode = fmt.Sprint(code)
	}
	want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%s,"message":"<string>"}}`, id, wantCode)
	if f := CompareJSON(got, want, Subset); f != nil {
		return nil, About(WithHint(f, hint), what, send)
	}
	if Field(got, "result") != nil {
		f := Failf("the answer has an error and a result; a refused request has no result")
		f.Sent, f.Got, f.Hint = shorten(send), shorten(string(got)), HintOmitempty
		return nil, f
	}
	return got, nil
}

// hasString reports whether raw is a JSON array of strings holding s.
func hasString(raw json.RawMessage, s string) bool {
	var list []string
	return json.Unmarshal(raw, &list) == nil && slices.Contains(list, s)
}

// dualLegacy is the 2025-11-25 session, which the starter already
// serves: a request before initialize is refused, then the handshake
// and a call.
func dualLegacy(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	early := dualRequest(`"early"`, "tools/list", "", "")
	if _, err := expectRefused(p, "tools/list without _meta, before initialize", early, `"early"`, codeAny, hintBeforeInit); err != nil {
		return err
	}
	if err := mcpHandshake(p); err != nil {
		return err
	}
	return p.ExpectSubset("a tools/call of word_count in the session",
		dualRequest("3", "tools/call", dualCallArgs, ""),
		`{"jsonrpc":"2.0","id":3,"result":{`+dualCallResult+`}}`)
}

// codeAny is expectRefused's code for "any error will do": the
// specification leaves the code for a request before initialize open.
const codeAny = 0

func dualModern(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	list := modern("1", "tools/list", "")
	got, err := expectModern(p, "a 2026-07-28 tools/list, the first message of the process", list,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":"<any>","resultType":"complete"}}`)
	if err != nil {
		return err
	}
	var tools []struct {
		Name string `json:"name"`
	}
	json.Unmarshal(Field(got, "result", "tools"), &tools)
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "word_count") {
		f := Failf("the 2026-07-28 tools/list lists no word_count tool")
		f.Sent, f.Got = shorten(list), shorten(string(got))
		return f
	}
	call, want := dualModernCall(`"call-2"`)
	_, err = expectModern(p, "a 2026-07-28 tools/call of word_count", call, want)
	return err
}

func dualDiscover(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	const what = "server/discover"
	send := modern(`"discover"`, "server/discover", "")
	got, err := expectModern(p, what, send,
		`{"jsonrpc":"2.0","id":"discover","result":{"supportedVersions":"<any>","capabilities":{"tools":{}},"resultType":"complete"}}`)
	if err != nil {
		return WithHint(err, hintDiscover)
	}
	if !hasString(Field(got, "result", "supportedVersions"), "2026-07-28") {
		f := Failf("%s: supportedVersions is not a list of revisions with 2026-07-28 in it", what)
		f.Sent, f.Got, f.Hint = shorten(send), shorten(string(got)), hintDiscover
		return f
	}
	return nil
}

func dualMissingMeta(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	for _, c := range []struct{ what, id, send string }{
		{"a tools/call whose _meta names 2026-07-28 but has no clientCapabilities", "1",
			dualRequest("1", "tools/call", dualCallArgs, `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`)},
		{"server/discover without params, so without _meta", "2",
			dualRequest("2", "server/discover", "", "")},
		{"server/discover whose _meta has clientCapabilities but no protocolVersion", "3",
			dualRequest("3", "server/discover", "", `"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}`)},
	} {
		if _, err := expectRefused(p, c.what, c.send, c.id, -32602, hintMissingMeta); err != nil {
			return err
		}
	}
	return nil
}

func dualUnsupported(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	const what = "a tools/call asking for revision 2099-01-01"
	send := dualRequest("1", "tools/call", dualCallArgs, dualMeta("2099-01-01"))
	got, err := expectRefused(p, what, send, "1", -32022, hintUnsupported)
	if err != nil {
		return err
	}
	if f := CompareJSON(Field(got, "error", "data"), `{"supported":"<any>","requested":"2099-01-01"}`, Subset); f != nil {
		f.restatef("the error's data is not {supported, requested}")
		return About(WithHint(f, hintUnsupported), what, send)
	}
	if !hasString(Field(got, "error", "data", "supported"), "2026-07-28") {
		f := Failf("%s: error.data.supported is not a list of revisions with 2026-07-28 in it", what)
		f.Sent, f.Got, f.Hint = shorten(send), shorten(string(got)), hintUnsupported
		return f
	}
	return nil
}

func dualRemovedMethods(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	for _, c := range []struct{ what, id, send string }{
		{"a 2026-07-28 ping", "1", modern("1", "ping", "")},
		{"a 2026-07-28 logging/setLevel", "2", modern("2", "logging/setLevel", `"level":"info"`)},
	} {
		if _, err := expectRefused(p, c.what, c.send, c.id, -32601, hintRemoved); err != nil {
			return err
		}
	}
	return WithHint(p.Expect("a 2025-11-25 ping, without _meta", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, `{"jsonrpc":"2.0","id":3,"result":{}}`), hintRemoved)
}

// dualStateless mixes the eras in one process: a good 2026-07-28 call
// must change nothing for the requests after it, of either era, and the
// legacy session must change nothing for 2026-07-28 requests.
func dualStateless(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	call, want := dualModernCall("1")
	if _, err := expectModern(p, "a 2026-07-28 tools/call of word_count", call, want); err != nil {
		return err
	}
	if _, err := expectRefused(p, "then a tools/call whose _meta names 2026-07-28 but has no clientCapabilities",
		dualRequest("2", "tools/call", dualCallArgs, `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`),
		"2", -32602, hintRemembers); err != nil {
		return err
	}
	if _, err := expectRefused(p, "then a tools/list without _meta, and no initialize yet",
		dualRequest("3", "tools/list", "", ""), "3", codeAny, hintNoSession); err != nil {
		return err
	}
	if err := WithHint(mcpHandshake(p), hintNoSession); err != nil {
		return About(err, "after 2026-07-28 requests, the 2025-11-25 handshake", "")
	}
	call, want = dualModernCall("4")
	_, err = expectModern(p, "a 2026-07-28 tools/call inside the process's 2025-11-25 session", call, want)
	return err
}

func dualNotifications(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	notes := []string{
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"gone","reason":"the user moved on",` + dualMeta("2026-07-28") + `}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	for _, n := range notes {
		if err := p.Send(n); err != nil {
			return About(err, "a notification", n)
		}
	}
	list := modern(`"after"`, "tools/list", "")
	got, err := p.Call("a 2026-07-28 tools/list after two notifications", list)
	if err != nil {
		return err
	}
	if string(Field(got, "id")) != `"after"` {
		f := Failf("a notification was answered; a notification gets no answer, in either era")
		f.Sent = strings.Join(append(notes, list), "\n")
		f.Got, f.Hint = shorten(string(got)), HintNotification
		return f
	}
	if f := CompareJSON(got, `{"jsonrpc":"2.0","id":"after","result":{"tools":"<any>","resultType":"complete"}}`, Subset); f != nil {
		return About(f, "a 2026-07-28 tools/list after two notifications", list)
	}
	return nil
}
