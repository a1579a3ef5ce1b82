package a2a_test

// The tests in tck_*_test.go hold the server to the requirements of the
// A2A Technology Compatibility Kit (github.com/a2aproject/a2a-tck, branch
// 1.0-dev). The TCK is Python and cannot run here, but its requirement
// list is a good checklist: each requirement has an ID, a level (MUST,
// SHOULD, MAY) and a sentence from the specification, in the TCK's
// tck/requirements/*.py. Each test here is named after one ID, with
// underscores for dashes (TestTCK_CORE_SEND_002 checks CORE-SEND-002), and
// its comment quotes the requirement and names the TCK file it comes from.
//
// The tests speak raw HTTP and JSON-RPC to an httptest server around
// a2a.NewServer, so that they see the bytes a foreign client would see.
// Where a requirement applies to both revisions the server speaks, the
// test runs twice, as the subtests "1.0" (A2A-Version: 1.0) and "0.3" (no
// header), each against a server of its own.
//
// A few checks have no TCK ID (the request size limit, the loopback
// guards); they are named TestHTTP_... and live in tck_http_test.go.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/tools"
)

// tckRevisions are the revisions a test runs in, by the names the
// A2A-Version header uses.
var tckRevisions = []string{a2a.Version10, a2a.Version03}

// tckPatience bounds how long a test waits for an answer or for a stream
// to end. It is a safety net against a hung server, not a claim about
// speed: answers here take milliseconds.
const tckPatience = 30 * time.Second

// tckServer is one agent under test, with its URL.
type tckServer struct {
	*httptest.Server
}

// tckStart starts a server; nil opts means the defaults, except that
// deploys take a millisecond a step. The server closes when the test ends.
func tckStart(t testing.TB, opts *a2a.Options) *tckServer {
	t.Helper()
	o := a2a.Options{}
	if opts != nil {
		o = *opts
	}
	if o.Tools == nil {
		o.Tools = tools.New(&tools.Options{DeployStep: time.Millisecond})
	}
	srv := a2a.NewServer(&o)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	// Cleanups run last-in first-out: srv.Close ends the running tasks,
	// and so the open streams that ts.Close waits for.
	t.Cleanup(srv.Close)
	return &tckServer{ts}
}

// tckBoth runs f once per revision, as parallel subtests, each with a
// server of its own made from opts.
func tckBoth(t *testing.T, opts func() *a2a.Options, f func(t *testing.T, c *tckClient)) {
	for _, v := range tckRevisions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			var o *a2a.Options
			if opts != nil {
				o = opts()
			}
			f(t, tckStart(t, o).client(t, v))
		})
	}
}

// tckClient is a hand-made JSON-RPC client for one revision.
type tckClient struct {
	t       *testing.T
	srv     *tckServer
	url     string
	version string // a2a.Version10 or a2a.Version03: the shapes to send and expect
	header  string // the A2A-Version header sent; empty sends none
	token   string // bearer token; empty sends none
	lastID  int    // numbers the requests
	lastMsg int    // numbers the messages
}

// client is a client of the server for one revision: 1.0 sends
// A2A-Version: 1.0, 0.3 sends no header.
func (s *tckServer) client(t *testing.T, version string) *tckClient {
	c := &tckClient{t: t, srv: s, url: s.URL + a2a.Endpoint, version: version}
	if version == a2a.Version10 {
		c.header = a2a.Version10
	}
	return c
}

func (c *tckClient) v10() bool { return c.version == a2a.Version10 }

// tckV03Methods are the 0.3 names of the 1.0 methods that 0.3 had.
var tckV03Methods = map[string]string{
	"SendMessage":                      "message/send",
	"SendStreamingMessage":             "message/stream",
	"GetTask":                          "tasks/get",
	"CancelTask":                       "tasks/cancel",
	"SubscribeToTask":                  "tasks/resubscribe",
	"CreateTaskPushNotificationConfig": "tasks/pushNotificationConfig/set",
	"GetTaskPushNotificationConfig":    "tasks/pushNotificationConfig/get",
	"ListTaskPushNotificationConfigs":  "tasks/pushNotificationConfig/list",
	"DeleteTaskPushNotificationConfig": "tasks/pushNotificationConfig/delete",
	"GetExtendedAgentCard":             "agent/getAuthenticatedExtendedCard",
}

// method names a 1.0 method as the client's revision does.
func (c *tckClient) method(name string) string {
	if c.v10() {
		return name
	}
	old, ok := tckV03Methods[name]
	if !ok {
		c.t.Fatalf("internal error in test: 0.3 has no method %s", name)
	}
	return old
}

// state spells a task state as the client's revision does.
func (c *tckClient) state(s a2a.TaskState) string {
	if c.v10() {
		return string(s)
	}
	return map[a2a.TaskState]string{
		a2a.StateSubmitted: "submitted", a2a.StateWorking: "working",
		a2a.StateInputRequired: "input-required", a2a.StateAuthRequired: "auth-required",
		a2a.StateCompleted: "completed", a2a.StateFailed: "failed",
		a2a.StateCanceled: "canceled", a2a.StateRejected: "rejected",
	}[s]
}

// role spells a role as the client's revision does.
func (c *tckClient) role(r a2a.Role) string {
	if c.v10() {
		return string(r)
	}
	return map[a2a.Role]string{a2a.RoleUser: "user", a2a.RoleAgent: "agent"}[r]
}

// msg is a user message with one text part; kv adds fields, such as
// "taskId", id.
func (c *tckClient) msg(text string, kv ...string) map[string]any {
	c.lastMsg++
	m := map[string]any{
		"messageId": fmt.Sprintf("tck-msg-%d", c.lastMsg),
		"role":      c.role(a2a.RoleUser),
		"parts":     []any{c.textPart(text)},
	}
	if !c.v10() {
		m["kind"] = "message"
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func (c *tckClient) textPart(text string) map[string]any {
	if c.v10() {
		return map[string]any{"text": text}
	}
	return map[string]any{"kind": "text", "text": text}
}

// filePart is a part with inline bytes (base64) of a media type.
func (c *tckClient) filePart(b64, mediaType string) map[string]any {
	if c.v10() {
		return map[string]any{"raw": b64, "mediaType": mediaType}
	}
	return map[string]any{"kind": "file", "file": map[string]any{"bytes": b64, "mimeType": mediaType}}
}

// nonBlocking is the configuration that asks SendMessage not to wait:
// 1.0 says returnImmediately, 0.3 said blocking: false.
func (c *tckClient) nonBlocking() map[string]any {
	if c.v10() {
		return map[string]any{"returnImmediately": true}
	}
	return map[string]any{"blocking": false}
}

// tckReply is one JSON-RPC response, as sent.
type tckReply struct {
	ID     json.RawMessage
	Result json.RawMessage
	Error  *tckError
	keys   []string // the response's members, sorted
}

type tckError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	keys    []string
}

// tckErrorInfo is a google.rpc.ErrorInfo in a 1.0 error's data.
type tckErrorInfo struct {
	Type     string            `json:"@type"`
	Reason   string            `json:"reason"`
	Domain   string            `json:"domain"`
	Metadata map[string]string `json:"metadata"`
}

// tckReasons are the ErrorInfo reasons of the A2A errors (TCK
// tck/requirements/base.py, ERROR_BINDINGS).
var tckReasons = map[int64]string{
	a2a.CodeTaskNotFound:             "TASK_NOT_FOUND",
	a2a.CodeTaskNotCancelable:        "TASK_NOT_CANCELABLE",
	a2a.CodePushNotSupported:         "PUSH_NOTIFICATION_NOT_SUPPORTED",
	a2a.CodeUnsupportedOperation:     "UNSUPPORTED_OPERATION",
	a2a.CodeContentTypeNotSupported:  "CONTENT_TYPE_NOT_SUPPORTED",
	a2a.CodeInvalidAgentResponse:     "INVALID_AGENT_RESPONSE",
	a2a.CodeExtendedCardNotAvailable: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
	a2a.CodeExtensionRequired:        "EXTENSION_SUPPORT_REQUIRED",
	a2a.CodeVersionNotSupported:      "VERSION_NOT_SUPPORTED",
}

// tckDecodeReply reads one JSON-RPC response and checks its envelope:
// "jsonrpc": "2.0", an id, and exactly one of result and error.
func tckDecodeReply(t *testing.T, body []byte) tckReply {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("the response is not a JSON object: %v\n%s", err, body)
	}
	r := tckReply{ID: m["id"], Result: m["result"], keys: tckKeys(m)}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Errorf(`response "jsonrpc" is %s, want "2.0": %s`, m["jsonrpc"], body)
	}
	if r.ID == nil {
		t.Errorf("response has no id: %s", body)
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if hasResult == hasError {
		t.Fatalf("a response has exactly one of result and error; got members %v: %s", r.keys, body)
	}
	if hasError {
		r.Error = &tckError{}
		if err := json.Unmarshal(m["error"], r.Error); err != nil {
			t.Fatalf("error object: %v: %s", err, body)
		}
		var members map[string]json.RawMessage
		json.Unmarshal(m["error"], &members)
		r.Error.keys = tckKeys(members)
	}
	return r
}

func tckKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// tckHTTP is an HTTP exchange, read to the end.
type tckHTTP struct {
	status int
	header http.Header
	body   []byte
}

// request builds a JSON-RPC request with the next id.
func (c *tckClient) request(method string, params any) []byte {
	c.lastID++
	req := map[string]any{"jsonrpc": "2.0", "id": c.lastID, "method": method}
	if params != nil {
		req["params"] = params
	}
	b, err := json.Marshal(req)
	if err != nil {
		c.t.Fatalf("internal error in test: %v", err)
	}
	return b
}

// newRequest is a POST of body to the endpoint with the client's headers;
// edit may change it before it is sent.
func (c *tckClient) newRequest(ctx context.Context, body []byte, edit func(*http.Request)) *http.Request {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.header != "" {
		req.Header.Set(a2a.VersionHeader, c.header)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if edit != nil {
		edit(req)
	}
	return req
}

// post sends body and reads the whole answer.
func (c *tckClient) post(body []byte, edit func(*http.Request)) tckHTTP {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), tckPatience)
	defer cancel()
	resp, err := http.DefaultClient.Do(c.newRequest(ctx, body, edit))
	if err != nil {
		c.t.Fatalf("POST %s: %v", c.url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("reading the response: %v", err)
	}
	return tckHTTP{status: resp.StatusCode, header: resp.Header, body: b}
}

// call sends one request (method by its 1.0 name) and returns the
// response, after checking that it came as 200 application/json with the
// request's id.
func (c *tckClient) call(method string, params any) tckReply {
	c.t.Helper()
	return c.callRaw(c.method(method), params)
}

// callRaw is call with the method name as given.
func (c *tckClient) callRaw(method string, params any) tckReply {
	c.t.Helper()
	h := c.post(c.request(method, params), nil)
	if h.status != http.StatusOK {
		c.t.Fatalf("%s: HTTP %d, want 200: %s", method, h.status, h.body)
	}
	if mt, _, _ := mime.ParseMediaType(h.header.Get("Content-Type")); mt != "application/json" {
		c.t.Fatalf("%s: Content-Type %q, want application/json", method, h.header.Get("Content-Type"))
	}
	r := tckDecodeReply(c.t, h.body)
	if want := fmt.Sprint(c.lastID); string(r.ID) != want {
		c.t.Errorf("%s: response id %s, want %s", method, r.ID, want)
	}
	return r
}

// result calls and returns the result, failing the test on an error.
func (c *tckClient) result(method string, params any) json.RawMessage {
	c.t.Helper()
	r := c.call(method, params)
	if r.Error != nil {
		c.t.Fatalf("%s: error %d %q, want a result", method, r.Error.Code, r.Error.Message)
	}
	return r.Result
}

// fail calls and returns the error, failing the test unless it has the
// code. The error's shape is checked for the revision (tckCheckError).
func (c *tckClient) fail(method string, params any, code int64) tckError {
	c.t.Helper()
	r := c.call(method, params)
	if r.Error == nil {
		c.t.Fatalf("%s: result %s, want error %d", method, r.Result, code)
	}
	tckCheckError(c.t, c.version, *r.Error, code)
	return *r.Error
}

// tckCheckError checks an error's code, and its shape in the revision: an
// object with code, message and perhaps data; in 1.0, data is a list
// holding a google.rpc.ErrorInfo whose reason names the A2A error.
func tckCheckError(t *testing.T, version string, e tckError, code int64) {
	t.Helper()
	if e.Code != code {
		t.Fatalf("error code %d (%q), want %d", e.Code, e.Message, code)
	}
	if e.Message == "" {
		t.Errorf("error %d has no message", e.Code)
	}
	for _, k := range e.keys {
		if k != "code" && k != "message" && k != "data" {
			t.Errorf("error object has member %q; JSON-RPC allows code, message and data", k)
		}
	}
	if version != a2a.Version10 {
		if len(e.Data) > 0 && e.Data[0] != '{' {
			t.Errorf("0.3 error data %s, want an object or none", e.Data)
		}
		return
	}
	info := tckFindErrorInfo(t, e)
	if want, ok := tckReasons[code]; ok {
		if info == nil {
			t.Fatalf("1.0 error %d has no google.rpc.ErrorInfo in data: %s", code, e.Data)
		}
		if info.Reason != want {
			t.Errorf("ErrorInfo reason %q, want %q", info.Reason, want)
		}
	}
	if info != nil && info.Domain != "a2a-protocol.org" {
		t.Errorf("ErrorInfo domain %q, want a2a-protocol.org", info.Domain)
	}
}

// tckFindErrorInfo returns the ErrorInfo in a 1.0 error's data, or nil.
// Data must be a list whose entries name their type with "@type".
func tckFindErrorInfo(t *testing.T, e tckError) *tckErrorInfo {
	t.Helper()
	if len(e.Data) == 0 {
		return nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(e.Data, &list); err != nil {
		t.Fatalf("1.0 error data must be a list of google.protobuf.Any: %v: %s", err, e.Data)
	}
	var found *tckErrorInfo
	for _, entry := range list {
		if _, ok := entry["@type"]; !ok {
			t.Errorf("error data entry without @type: %v", entry)
		}
		if string(entry["@type"]) == `"type.googleapis.com/google.rpc.ErrorInfo"` {
			b, _ := json.Marshal(entry)
			found = &tckErrorInfo{}
			if err := json.Unmarshal(b, found); err != nil {
				t.Fatalf("ErrorInfo: %v: %s", err, b)
			}
		}
	}
	return found
}
