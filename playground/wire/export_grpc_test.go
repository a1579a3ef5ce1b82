package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"

	"github.com/wirelab/wirelab/internal/tap"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// changedTools answers ExecuteTool with other bytes than echoTools: the
// planted defect of a replay.
type changedTools struct {
	toolsv1.UnimplementedToolServerServer
}

func (changedTools) ExecuteTool(context.Context, *toolsv1.ExecuteToolRequest) (*toolsv1.ExecuteToolResponse, error) {
	return &toolsv1.ExecuteToolResponse{Result: []byte(`{"words":4}`)}, nil
}

// exportSecret is the token the calls send; it must not be in an export.
const exportSecret = "s3cret-token-4711"

// grpcSession makes three calls with a bearer token to a custom-grpc
// target on one kept connection, and returns the hub, the session and
// the target's "to".
func grpcSession(t *testing.T) (h *Hub, id, to, addr string) {
	t.Helper()
	h, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	id = readHello(t, conn).Session
	addr = "127.0.0.1:" + startBareGRPC(t, nil)
	up, err := h.UploadGRPC(t.Context(), "proto", map[string][]byte{"tools.proto": mustRead(t, toolsProto)})
	if err != nil {
		t.Fatal(err)
	}
	to = addr + " -proto " + up.Upload
	frame := "tools.v1.ToolServer/ExecuteTool\nauthorization: Bearer " + exportSecret + "\n" + `{"toolName":"word_count","arguments":"eyJ0ZXh0IjoiaGVsbG8ifQ=="}`
	for i := range 3 {
		if _, dump, refusal := callCustom(t, conn, int64(i+1), to, frame); refusal != "" || !strings.Contains(dump, "OK (0)") {
			t.Fatalf("call %d: %s%s", i+1, refusal, dump)
		}
	}
	return h, id, to, addr
}

// holdsSecret reports whether the recording holds the secret, in its
// JSON or in a frame's bytes, as typed or Huffman-coded.
func holdsSecret(t *testing.T, events []tap.Event) bool {
	t.Helper()
	b, err := json.Marshal(events)
	if err != nil {
		t.Fatal(err)
	}
	huff := hpack.AppendHuffmanString(nil, "Bearer "+exportSecret)
	if bytes.Contains(b, []byte(exportSecret)) {
		return true
	}
	for _, e := range events {
		if raw := e.Bytes(); bytes.Contains(raw, []byte(exportSecret)) || bytes.Contains(raw, huff) {
			return true
		}
	}
	return false
}

// TestExportGRPC: a gRPC console's calls with a bearer token, exported,
// are a recording of frames with the token masked, that the check finds
// nothing wrong with; replayed against the same server it agrees, and
// against a server that answers otherwise it does not.
func TestExportGRPC(t *testing.T) {
	h, id, to, addr := grpcSession(t)
	exported, err := h.Export(id, "custom-grpc", to)
	if err != nil {
		t.Fatal(err)
	}
	events := viaFile(t, exported)
	if events[0].Kind != tap.KindStart || events[0].Upstream != "grpc://"+addr {
		t.Errorf("the start event: %+v", events[0])
	}
	if holdsSecret(t, events) {
		t.Error("the export holds the token")
	}
	var headers, masked int
	for _, e := range events {
		if e.Kind == tap.KindNote && strings.Contains(e.Data, "left out") {
			t.Errorf("a note of blocks left out, from a session that began with its connection: %s", e.Data)
		}
		if e.Kind == tap.KindFrame && e.Frame == "HEADERS" && e.Dir == tap.Out {
			headers++
			if e.Conn != 1 {
				t.Errorf("a call on connection %d, want all three on the kept connection 1", e.Conn)
			}
		}
		if e.Kind == tap.KindFrame && bytes.Contains(e.Bytes(), []byte("Bearer ****")) {
			masked++
		}
	}
	if headers != 3 || masked != 1 {
		t.Errorf("%d HEADERS sent, %d with the mask; want 3, the first with the mask and the later ones referring to it", headers, masked)
	}
	noFindings(t, events)

	ctx := t.Context()
	diffs, err := tap.ReplayGRPC(ctx, events, addr, nil)
	if err != nil || len(diffs) != 0 {
		t.Errorf("replay against the same server: %v, differences %v", err, diffs)
	}
	changed := "127.0.0.1:" + startServing(t, changedTools{})
	diffs, err = tap.ReplayGRPC(ctx, events, changed, nil)
	if err != nil || len(diffs) != 3 || !strings.Contains(diffs[0].What, "ExecuteTool") {
		t.Errorf("replay against a changed server: %v, differences %v; want one for each call", err, diffs)
	}
}

// TestExportGRPCMidConnection: when the session's kept events begin after
// its connection's first call, the header blocks that refer to what that
// call added to HPACK's table cannot be read: they are left out with a
// note, and the token is in the export neither way.
func TestExportGRPCMidConnection(t *testing.T) {
	h, id, to, addr := grpcSession(t)
	kept, _ := h.Transcript(id)
	var evs []Event
	for _, b := range kept {
		var ev Event
		json.Unmarshal(b, &ev)
		evs = append(evs, ev)
	}
	// Cut the events just after the first call's answer.
	first := 0
	for i, ev := range evs {
		if ev.Kind == "grpc" {
			first = i
			break
		}
	}
	x := exporter{rec: tap.NewRecorder(nil)}
	if err := x.grpc(evs[first+1:], "custom-grpc", to, "grpc://"+addr); err != nil {
		t.Fatal(err)
	}
	events := viaFile(t, x.rec.Events())
	if holdsSecret(t, events) {
		t.Error("the export from mid-connection holds the token")
	}
	var notes []string
	for _, e := range events {
		if e.Kind == tap.KindNote {
			notes = append(notes, e.Data)
		}
	}
	all := strings.Join(notes, "\n")
	if !strings.Contains(all, "begin in the middle of this connection") || !strings.Contains(all, "the header blocks the playground's client sent on connection 1 are left out") {
		t.Errorf("the notes:\n%s", all)
	}
}

// startServing serves tools with no reflection until the test ends, and
// returns its port.
func startServing(t *testing.T, tools toolsv1.ToolServerServer) string {
	t.Helper()
	s := grpc.NewServer()
	toolsv1.RegisterToolServerServer(s, tools)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Serve returns when Stop closes the listener.
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}
