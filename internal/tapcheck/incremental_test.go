package tapcheck

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"os"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/internal/tap"
)

// handed is one change a Checker handed on, and the event whose Add
// handed it on (0: End).
type handed struct {
	after int
	Change
}

// replay feeds events to a Checker one at a time and applies each
// change to a list of findings, as a page marking rows does.
func replay(events []tap.Event) (findings []Finding, log []handed) {
	k := NewChecker()
	apply := func(seq int, changes []Change) {
		for _, c := range changes {
			for c.Index >= len(findings) {
				findings = append(findings, Finding{})
			}
			findings[c.Index] = c.Finding
			log = append(log, handed{seq, c})
		}
	}
	for _, e := range events {
		apply(e.Seq, k.Add(e))
	}
	apply(0, k.End())
	return findings, log
}

// TestCheckerMatchesCheck: findings handed on one event at a time, the
// changed ones replaced, add up to what Check reports for the whole
// recording, in its order, on recordings that exercise every path: a
// rule judged at a later event, a finding amended, gRPC calls judged at
// the end, and a real recording with a planted defect.
func TestCheckerMatchesCheck(t *testing.T) {
	recording, err := os.Open("../../exercises/find-the-defect/recording.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer recording.Close()
	defect, err := tap.Read(recording)
	if err != nil {
		t.Fatal(err)
	}
	refused := append([]tap.Event{{Seq: 1, Kind: tap.KindStart, Format: tap.Format}},
		exchange(1, 2, http.Header{"Mcp-Protocol-Version": {"2026-07-28"}}, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`, 400,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no _meta"}}`, false)...)
	// The result comes before the list that declares the tool's
	// outputSchema: it is judged when the list arrives.
	early := stdioEvents(initialize, initialized,
		`> {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wc","arguments":{}}}`,
		listTools,
		`< {"jsonrpc":"2.0","id":3,"result":{"content":[]}}`,
		`< {"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"wc","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]}}`,
		"< not json", listTools)
	grpcCut := grpcWithoutStatus(t)
	// A version amended when the host goes on in it, a call the server
	// exits in, and a request judged at the end.
	ended := append(stdioEvents(initialize,
		`< {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1999-01-01","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`,
		`> {"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wc"}}`),
		exited(6, "signal: killed", 137))
	session := http.Header{"Mcp-Session-Id": {"s1"}, "Mcp-Protocol-Version": {"2025-11-25"}}
	broken := numbered(post(1, nil, initialize[2:]), head(1, 200, "application/json"),
		tap.Event{Kind: tap.KindHTTPBody, Dir: tap.In, Exchange: 1, Data: `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`},
		end(1, ""), post(2, session, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), head(2, 200, "text/event-stream"),
		end(2, "the body broke off: unexpected EOF"))
	broken[2].Header.Set("Mcp-Session-Id", "s1")

	for _, tt := range []struct {
		name   string
		events []tap.Event
	}{
		{"a recording with a planted defect", defect},
		{"a request refused after its schema finding", refused},
		{"a result judged when its tool is listed", early},
		{"gRPC frames", grpcCut},
		{"a version amended, a call the server exits in", ended},
		{"a note made when the host goes on, a request judged at the end", broken},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := Check(tt.events).Findings
			got, log := replay(tt.events)
			if got == nil {
				got = []Finding{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings one event at a time differ from Check's (-Check +Checker):\n%s", diff)
			}
			if len(want) == 0 {
				t.Errorf("the recording has no findings: it tests nothing")
			}
			// A finding is handed on once its event has been read, never
			// before: a page has the row to put it on.
			for _, h := range log {
				if h.after != 0 && h.Finding.Event > h.after {
					t.Errorf("finding %d (%s at event %d) handed on after event %d", h.Index, h.Finding.Code, h.Finding.Event, h.after)
				}
			}
		})
	}

	// The amended finding comes again, with the index it had, at the
	// event that amends it.
	k := NewChecker()
	var changes [][]Change
	for _, e := range refused {
		changes = append(changes, k.Add(e))
	}
	last := changes[len(changes)-1] // the error body, event 4
	if len(last) != 1 || last[0].Index != 0 || last[0].Finding.Code != "schema" || last[0].Finding.Event != 2 {
		t.Errorf("the refusal's changes: %+v, want finding 0 (schema, event 2) again, amended", last)
	}
}

// grpcWithoutStatus records a gRPC call whose server answered its
// headers and then closed the connection: no trailers, no status.
func grpcWithoutStatus(t *testing.T) []tap.Event {
	events := []tap.Event{{Seq: 1, Kind: tap.KindStart, Format: tap.Format, Upstream: "grpc://127.0.0.1:1"},
		{Seq: 2, Kind: tap.KindFrame, Dir: tap.Out, Conn: 1, Frame: "PREFACE", Base64: base64.StdEncoding.EncodeToString([]byte(http2.ClientPreface))}}
	frame := func(dir string, fields ...string) {
		var block, out bytes.Buffer
		enc := hpack.NewEncoder(&block)
		for i := 0; i < len(fields); i += 2 {
			enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
		}
		if err := http2.NewFramer(&out, nil).WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block.Bytes(), EndHeaders: true}); err != nil {
			t.Fatal(err)
		}
		events = append(events, tap.Event{Seq: len(events) + 1, Kind: tap.KindFrame, Dir: dir, Conn: 1, Frame: "HEADERS", Stream: 1,
			Base64: base64.StdEncoding.EncodeToString(out.Bytes())})
	}
	frame(tap.Out, ":method", "POST", ":scheme", "http", ":path", "/tools.v1.ToolServer/ListTools", "content-type", "application/grpc")
	frame(tap.In, ":status", "200", "content-type", "application/grpc")
	return events
}
