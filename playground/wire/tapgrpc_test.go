package wire

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/wirelab/wirelab/internal/tap"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// recordGRPC relays one connection of a gRPC client to the reference
// server through the tap's gRPC relay and returns what the tap recorded:
// a word_count call, then a call of a tool that does not exist. With
// describe, the relay asks the server for its descriptors first, and the
// calls wait for them, so that the recording holds them before the calls.
func recordGRPC(t *testing.T, describe bool) []tap.Event {
	t.Helper()
	upstream := startGRPC(t)
	rec := tap.NewRecorder(nil)
	rec.Add(tap.Event{Kind: tap.KindStart, Format: tap.Format, Upstream: "grpc://" + upstream})
	g, err := tap.NewGRPC(upstream, rec, &tap.GRPCOptions{NoDescriptors: !describe})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	// Ends when cancel stops Serve.
	go func() { served <- g.Serve(ctx, ln) }()
	if describe {
		waitFor(t, func() bool {
			for _, e := range rec.Events() {
				if e.Kind == tap.KindDescriptors {
					return true
				}
			}
			return false
		})
	}
	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	client := toolsv1.NewToolServerClient(conn)
	if _, err := client.ExecuteTool(ctx, &toolsv1.ExecuteToolRequest{ToolName: "word_count", Arguments: []byte(`{"text":"read the wire"}`)}); err != nil {
		t.Fatalf("word_count through the tap: %v", err)
	}
	if _, err := client.ExecuteTool(ctx, &toolsv1.ExecuteToolRequest{ToolName: "no_such_tool"}); err == nil {
		t.Fatal("a tool that does not exist: no error")
	}
	conn.Close()
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	return rec.Events()
}

// TestTapGRPCCalls: a gRPC tap's frames come to the console as its own
// calls do: each call a "grpc-call" with the method, the metadata and
// the request, then "grpc" events with its frames, in progress while
// the server answers and whole at its end, all with the call's id. The
// first call shows the connection's preface, the second says it reuses
// the connection; with the tap's descriptors messages are JSON, without
// them fields by number.
func TestTapGRPCCalls(t *testing.T) {
	for _, describe := range []bool{true, false} {
		events := recordGRPC(t, describe)
		tr := translator{}
		type call struct {
			request  string
			answers  []string // each answer's first line
			final    string   // the last answer's whole text
			frames   int
			outFirst bool // the call's row came before its answers
		}
		calls := map[int64]*call{}
		notes := ""
		for _, e := range events {
			for _, ev := range tr.events(e) {
				if ev.Target != "custom-grpc" {
					t.Errorf("event %+v: target %q, want custom-grpc", ev, ev.Target)
				}
				c := calls[ev.ID]
				switch ev.Kind {
				case "grpc-call":
					if c == nil {
						c = &call{outFirst: true}
						calls[ev.ID] = c
					}
					c.request = ev.Text
				case "grpc":
					if c == nil {
						t.Fatalf("an answer for call %d before the call", ev.ID)
					}
					first, _, _ := strings.Cut(ev.Text, "\n")
					c.answers = append(c.answers, first)
					c.final, c.frames = ev.Text, len(ev.Frames)
				default:
					notes += ev.Text + "\n"
				}
			}
		}
		if len(calls) != 2 {
			t.Fatalf("describe %v: %d calls, want 2; notes:\n%s", describe, len(calls), notes)
		}
		wantRequest := `{"toolName":"word_count","arguments":"eyJ0ZXh0IjoicmVhZCB0aGUgd2lyZSJ9"}`
		if !describe {
			wantRequest = `field 1 (len) = "word_count"`
		}
		c1, c2 := calls[1], calls[2]
		if !strings.HasPrefix(c1.request, "tools.v1.ToolServer/ExecuteTool\n") || !strings.Contains(c1.request, "\n\n"+wantRequest) {
			t.Errorf("describe %v: call 1's row:\n%s\nwant the method, metadata, and %s", describe, c1.request, wantRequest)
		}
		if got, want := c1.answers[len(c1.answers)-1], "call /tools.v1.ToolServer/ExecuteTool on stream 1: OK (0)"; got != want {
			t.Errorf("describe %v: call 1 ends %q, want %q", describe, got, want)
		}
		if len(c1.answers) < 2 || c1.answers[0] != "call /tools.v1.ToolServer/ExecuteTool on stream 1: in progress, no status yet" {
			t.Errorf("describe %v: call 1's answers %q, want it in progress first", describe, c1.answers)
		}
		if !strings.Contains(c1.final, "\n-> PREFACE len=24 ") || !strings.Contains(c1.final, "\n    grpc-status: 0\n") || c1.frames < 6 {
			t.Errorf("describe %v: call 1's dump (%d frames) lacks the preface or the status:\n%s", describe, c1.frames, c1.final)
		}
		if describe && !strings.Contains(c1.final, `as JSON: {"result":`) {
			t.Errorf("call 1's dump decodes no response as JSON:\n%s", c1.final)
		}
		if got := c2.answers[len(c2.answers)-1]; !strings.HasPrefix(got, "call /tools.v1.ToolServer/ExecuteTool on stream 3: NOT_FOUND (5)") {
			t.Errorf("describe %v: call 2 ends %q, want NOT_FOUND on stream 3", describe, got)
		}
		if !strings.Contains(c2.final, "reusing the connection opened at ") || strings.Contains(c2.final, "PREFACE") {
			t.Errorf("describe %v: call 2's dump does not say it reuses the connection:\n%s", describe, c2.final)
		}
		if describe != strings.Contains(notes, "by reflection") {
			t.Errorf("describe %v: notes:\n%s", describe, notes)
		}
	}
}

// TestTapGRPCOpenCall: a recording that stops before a call's trailers
// shows the call at its end as the wire left it, with no status, and
// the check's finding about it is published naming the event that the
// call's row shows.
func TestTapGRPCOpenCall(t *testing.T) {
	events := recordGRPC(t, false)
	// Cut the recording at the first call's trailers.
	for i, e := range events {
		b := e.Bytes()
		if e.Kind == tap.KindFrame && e.Dir == tap.In && e.Frame == "HEADERS" && len(b) > 4 && b[4]&flagEndStream != 0 {
			events = events[:i]
			break
		}
	}
	h := newTestHub(t, Targets{})
	info, err := h.OpenRecording("cut.jsonl", events)
	if err != nil {
		t.Fatal(err)
	}
	var callSeq, findingSeq int
	var last string
	transcript, _ := h.Transcript(info.ID)
	for _, b := range transcript {
		var ev tapEvent
		if err := json.Unmarshal(b, &ev); err != nil {
			t.Fatal(err)
		}
		switch ev.Kind {
		case "grpc-call":
			if callSeq == 0 {
				callSeq = ev.Seq
			}
		case "grpc":
			last, _, _ = strings.Cut(ev.Text, "\n")
		case "finding":
			if ev.Finding.Code == "grpc-no-status" {
				findingSeq = ev.Seq
			}
		}
	}
	if want := "call /tools.v1.ToolServer/ExecuteTool on stream 1: UNKNOWN (2): no status on the wire: the recording ends before the trailers"; last != want {
		t.Errorf("the call's last answer: %q, want %q", last, want)
	}
	if callSeq == 0 || findingSeq != callSeq {
		t.Errorf("the finding names event %d, the call's row shows event %d", findingSeq, callSeq)
	}
}
