package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The fuzz targets' patience. A client of the fuzzed handler hangs up
// after fuzzClientWait, as a real one would (a stream on a task that
// waits for an answer stays open until then); the handler must then
// return within fuzzPatience. Both guard against hangs; neither is a
// claim about speed.
const (
	fuzzClientWait = time.Second
	fuzzPatience   = 10 * time.Second
)

// knownCodes are the error codes an answer may carry: JSON-RPC's and
// A2A's. -32603 is not among them: nothing a caller sends should make
// the agent report itself broken.
var knownCodes = map[int64]bool{
	jsonrpc.CodeParseError: true, jsonrpc.CodeInvalidRequest: true, jsonrpc.CodeMethodNotFound: true, jsonrpc.CodeInvalidParams: true,
	CodeTaskNotFound: true, CodeTaskNotCancelable: true, CodePushNotSupported: true, CodeUnsupportedOperation: true,
	CodeContentTypeNotSupported: true, CodeInvalidAgentResponse: true, CodeExtendedCardNotAvailable: true,
	CodeExtensionRequired: true, CodeVersionNotSupported: true,
}

// transcriptBodies are the JSON-RPC bodies of every golden transcript's
// requests, each with the revision its A2A-Version header names.
func transcriptBodies(f *testing.F) (bodies [][]byte, v10 []bool) {
	for _, tf := range transcript.Glob(f, "testdata/*.txtar") {
		reqs, _ := transcript.SplitHTTP(f, tf.Section(f, "client"), false)
		for _, r := range reqs {
			if _, body, ok := bytes.Cut(r.Wire, []byte("\r\n\r\n")); ok && len(body) > 0 {
				bodies = append(bodies, body)
				v10 = append(v10, r.Parsed.Header.Get("A2A-Version") == Version10)
			}
		}
	}
	return bodies, v10
}

// FuzzHandler POSTs any body, in 1.0 or 0.3, to an agent that holds a
// task waiting for an answer (id-1, in context id-2) and a completed one
// (id-3, in id-4), for the body to name. The agent must not panic or
// hang; must answer only in JSON-RPC responses, each with the request's
// id, exactly one unless it streams; must use the revision's error form
// and only JSON-RPC's and A2A's codes; and must still take a new task
// afterwards. Seeds: the requests of the golden transcripts.
func FuzzHandler(f *testing.F) {
	bodies, v10 := transcriptBodies(f)
	for i := range bodies {
		f.Add(bodies[i], v10[i])
		// The same request about the completed task.
		if done := bytes.ReplaceAll(bodies[i], []byte(`"id-1"`), []byte(`"id-3"`)); !bytes.Equal(done, bodies[i]) {
			f.Add(done, v10[i])
		}
	}
	cat := tools.New(&tools.Options{DeployStep: time.Nanosecond})
	f.Fuzz(func(t *testing.T, body []byte, v10 bool) {
		version := Version03
		if v10 {
			version = Version10
		}
		var n atomic.Int64
		s := NewServer(&Options{Tools: cat, NewID: func() string { return fmt.Sprintf("id-%d", n.Add(1)) }})
		defer s.Close()
		post(t, s, version, sendText(version, 1, "deploy api-gateway", "", false))
		post(t, s, version, sendText(version, 2, "count a b", "", false))

		ctx, cancel := context.WithTimeout(context.Background(), fuzzClientWait)
		defer cancel()
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, Endpoint, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if v10 {
			r.Header.Set("A2A-Version", Version10)
		}
		w := httptest.NewRecorder()
		done := make(chan struct{})
		// Ends when the handler returns, at the latest once the client
		// hangs up.
		go func() { defer close(done); s.ServeHTTP(w, r) }()
		select {
		case <-done:
		case <-time.After(fuzzClientWait + fuzzPatience):
			t.Fatalf("the handler did not return %v after its client hung up", fuzzPatience)
		}
		hungUp := ctx.Err() != nil

		answers := responsesIn(t, w)
		m, reject := jsonrpc.Decode(body)
		switch {
		case reject != nil:
			if len(answers) != 1 || answers[0].ID != reject.ID || answers[0].Error == nil || answers[0].Error.Code != reject.Error.Code {
				t.Errorf("a body that is no JSON-RPC request got %s, want one error %d with id %s", w.Body, reject.Error.Code, reject.ID)
			}
		case isNotification(m):
			if w.Code != http.StatusNoContent || w.Body.Len() > 0 {
				t.Errorf("a notification got %d %s, want 204 and no body", w.Code, w.Body)
			}
		default:
			id := jsonrpc.ID{}
			if req, ok := m.(*jsonrpc.Request); ok {
				id = req.ID
			}
			streamed := strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream")
			if len(answers) == 0 && !hungUp || len(answers) > 1 && !streamed {
				t.Errorf("%d answers to one request: %s", len(answers), w.Body)
			}
			for _, a := range answers {
				if a.ID != id {
					t.Errorf("an answer to request %s has id %s", id, a.ID)
				}
			}
		}
		for _, a := range answers {
			if a.Error == nil {
				continue
			}
			if !knownCodes[a.Error.Code] && !hungUp {
				t.Errorf("error code %d is neither JSON-RPC's nor A2A's: %s", a.Error.Code, a.Error.Message)
			}
			checkErrorData(t, version, a.Error)
		}

		after := post(t, s, version, sendText(version, 99, "count still serving", "", false))
		if after.Error != nil || after.Result.Status.State == "" {
			t.Errorf("a new task after the fuzz input: %+v", after.Error)
		}
	})
}

func isNotification(m jsonrpc.Message) bool {
	r, ok := m.(*jsonrpc.Request)
	return ok && r.IsNotification()
}

// responsesIn reads an answer's JSON-RPC responses: one JSON body, or
// the data of each SSE event. Anything else fails the test.
func responsesIn(t *testing.T, w *httptest.ResponseRecorder) []*jsonrpc.Response {
	t.Helper()
	if w.Body.Len() == 0 {
		return nil
	}
	mt, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type"))
	var datas []string
	switch mt {
	case "application/json":
		datas = []string{w.Body.String()}
	case "text/event-stream":
		for _, line := range strings.Split(w.Body.String(), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				datas = append(datas, d)
			}
		}
	default:
		t.Fatalf("a %d answer of type %q: %s", w.Code, mt, w.Body)
	}
	var out []*jsonrpc.Response
	for _, d := range datas {
		m, reject := jsonrpc.Decode([]byte(strings.TrimSpace(d)))
		resp, ok := m.(*jsonrpc.Response)
		if reject != nil || !ok {
			t.Fatalf("an answer holds something that is no JSON-RPC response: %s", d)
		}
		out = append(out, resp)
	}
	return out
}

// checkErrorData holds an error to its revision's form: in 1.0, "data"
// is a list that holds a google.rpc.ErrorInfo with a reason in A2A's
// domain; in 0.3, an object, if present.
func checkErrorData(t *testing.T, version string, e *jsonrpc.Error) {
	t.Helper()
	if version != Version10 {
		if len(e.Data) > 0 && !isJSONObject(e.Data) {
			t.Errorf("0.3 error data is not an object: %s", e.Data)
		}
		return
	}
	var details []struct {
		Type   string `json:"@type"`
		Reason string `json:"reason"`
		Domain string `json:"domain"`
	}
	if err := json.Unmarshal(e.Data, &details); err != nil || len(details) == 0 ||
		details[0].Type != errorInfoType || details[0].Reason == "" || details[0].Domain != ErrorDomain {
		t.Errorf("1.0 error %d without an ErrorInfo in its data: %s", e.Code, e.Data)
	}
}

// FuzzV03 reads any bytes as 0.3 send params and as a 0.3 result, as
// this package does for 0.3 callers and agents, and holds the
// translation to its promise: whatever it reads, writing it back as 0.3
// and reading that again gives the same 1.0 value, so nothing is lost or
// changed on the way. Seeds: the params and results of the 0.3 golden
// transcripts.
func FuzzV03(f *testing.F) {
	for _, tf := range transcript.Glob(f, "testdata/*.txtar") {
		for _, sec := range []string{"client", "server"} {
			for _, line := range strings.Split(string(tf.Section(f, sec)), "\n") {
				line = strings.TrimPrefix(line, "data: ")
				var msg struct{ Params, Result json.RawMessage }
				if json.Unmarshal([]byte(line), &msg) == nil {
					for _, raw := range []json.RawMessage{msg.Params, msg.Result} {
						if len(raw) > 0 {
							f.Add([]byte(raw))
						}
					}
				}
			}
		}
	}
	// Parts of every kind, with metadata, which no transcript shows.
	f.Add([]byte(`{"message":{"kind":"message","messageId":"m1","role":"user","metadata":{"a":1},"parts":[` +
		`{"kind":"text","text":"hi","metadata":{"k":"v"}},` +
		`{"kind":"file","file":{"bytes":"aGk=","mimeType":"text/plain","name":"a.txt"}},` +
		`{"kind":"file","file":{"uri":"https://example.test/a","mimeType":"application/json"}},` +
		`{"kind":"data","data":{"value":[1,2]},"metadata":{"data_part_compat":true}},` +
		`{"kind":"data","data":{"y":null}}]},"configuration":{"blocking":false,"historyLength":2,"acceptedOutputModes":["text/plain"]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var p v03SendParams
		if json.Unmarshal(raw, &p) == nil {
			if req, err := fromV03SendParams(p); err == nil {
				again, err := fromV03SendParams(roundTrip(t, toV03SendParams(req), v03SendParams{}))
				if err != nil {
					t.Fatalf("0.3 params written from %s do not read back: %v", raw, err)
				}
				if diff := cmp.Diff(req, again); diff != "" {
					t.Errorf("0.3 params %s changed on the way back (-read +again):\n%s", raw, diff)
				}
			}
		}
		ev, _, err := fromV03Event(raw)
		if err != nil || (ev == StreamResponse{}) {
			return
		}
		b, err := json.Marshal(toV03Event(ev))
		if err != nil {
			t.Fatalf("writing %+v as 0.3: %v", ev, err)
		}
		again, _, err := fromV03Event(b)
		if err != nil {
			t.Fatalf("0.3 result %s, written back as %s, does not read: %v", raw, b, err)
		}
		if diff := cmp.Diff(ev, again); diff != "" {
			t.Errorf("0.3 result %s changed on the way back (-read +again):\n%s", raw, diff)
		}
	})
}

// roundTrip writes v as JSON and reads it into a T.
func roundTrip[T any](t *testing.T, v any, into T) T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("writing %+v: %v", v, err)
	}
	if err := json.Unmarshal(b, &into); err != nil {
		t.Fatalf("reading back %s: %v", b, err)
	}
	return into
}
