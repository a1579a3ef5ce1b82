package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/tools"
)

// exportFrames is an MCP conversation as a learner types it into the
// console, one frame at a time.
var exportFrames = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}`,
}

// TestExportStdio: a console's MCP session over stdio, exported, is a
// recording the check finds nothing wrong with; replayed against the
// same server it agrees, and against a server that answers one call
// differently it does not; opened again in the playground, it shows the
// same lines.
func TestExportStdio(t *testing.T) {
	h, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	id := readHello(t, conn).Session
	for i, f := range exportFrames {
		send(t, conn, Command{Op: "send", ID: int64(i + 1), Target: "mcp-stdio", Frame: f})
		next(t, conn, func(ev Event) bool { return ev.Dir == "out" })
		if i != 1 { // a notification has no answer
			next(t, conn, func(ev Event) bool { return ev.Dir == "in" && ev.Kind == "line" })
		}
	}
	events, err := h.Export(id, "", "")
	if err != nil {
		t.Fatal(err)
	}
	events = viaFile(t, events)
	if want := []string{os.Args[0], "server", "mcp"}; !cmp.Equal(events[0].Command, want) {
		t.Errorf("start event's command %q, want %q", events[0].Command, want)
	}
	var lines []string
	for _, e := range events {
		if e.Kind == tap.KindLine {
			lines = append(lines, e.Dir+" "+e.Data)
		}
	}
	if len(lines) != 7 || lines[0] != "out "+exportFrames[0] || !strings.HasPrefix(lines[1], `in {"jsonrpc":"2.0","id":1,"result"`) {
		t.Errorf("lines of the recording:\n%s", strings.Join(lines, "\n"))
	}
	noFindings(t, events)

	ctx := context.Background()
	diffs, err := tap.ReplayStdio(ctx, events, []string{os.Args[0], "server", "mcp"}, 0, nil)
	if err != nil || len(diffs) != 0 {
		t.Errorf("replay against the same server: %v, differences %v", err, diffs)
	}

	// The planted defect: a server that gives the recorded answers, but
	// counts one word too many.
	var answers []string
	for _, e := range events {
		switch {
		case e.Kind == tap.KindLine && e.Dir == tap.Out:
			answers = append(answers, "")
		case e.Kind == tap.KindLine && e.Dir == tap.In:
			answers[len(answers)-1] = strings.ReplaceAll(e.Data, `"words":3`, `"words":4`)
		}
	}
	// Answer n, if any, is in the file named n; the server reads a line,
	// then writes that line's answer.
	dir := t.TempDir()
	for i, a := range answers {
		if a == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i+1)), []byte(a+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	defect := []string{"sh", "-c", `n=0; while IFS= read -r line; do n=$((n+1)); if [ -f "$0/$n" ]; then cat "$0/$n"; fi; done`, dir}
	diffs, err = tap.ReplayStdio(ctx, events, defect, 0, nil)
	if err != nil || len(diffs) != 1 || !strings.Contains(diffs[0].What, "tools/call") || !strings.Contains(diffs[0].Diff, `"words": 4`) {
		t.Errorf("replay against the planted defect: %v, differences %v; want one, in the word count", err, diffs)
	}

	same := func(ev Event) bool { return ev.Kind == "line" }
	unnumbered := func(rows []exportRow) []exportRow {
		for i := range rows {
			// A stdio recording has no exchanges, where the console
			// numbers the frames; a recording's line is shown without
			// its newline.
			rows[i].Exchange, rows[i].Text = 0, strings.TrimSuffix(rows[i].Text, "\n")
		}
		return rows
	}
	if got, want := unnumbered(reopened(t, h, events, same)), unnumbered(rowsOf(t, h, id, same)); !cmp.Equal(got, want) {
		t.Errorf("the recording opened again shows other lines (-got +want):\n%s", cmp.Diff(got, want))
	}
}

// TestExportHTTP: a console's MCP session over Streamable HTTP, with a
// bearer token, exported: the token is masked, the check finds nothing
// wrong, a replay against the same server agrees and against a server
// that answers one call differently it does not, and the recording
// opened again shows the same exchanges.
func TestExportHTTP(t *testing.T) {
	ref := mcpServer(t, nil)
	h, srv := startHub(t, Targets{MCPURL: ref.URL + mcp.Endpoint})
	conn := dial(t, srv)
	id := readHello(t, conn).Session
	head := "POST " + mcp.Endpoint + " HTTP/1.1\nAccept: application/json, text/event-stream\nContent-Type: application/json\nAuthorization: Bearer s3cret\n"
	session := ""
	for i, f := range exportFrames {
		send(t, conn, Command{Op: "send", ID: int64(i + 1), Target: "mcp-http", Frame: head + session + "\n" + f})
		hd := next(t, conn, func(ev Event) bool { return ev.Kind == "http-head" })
		next(t, conn, func(ev Event) bool { return ev.Kind == "end" })
		if i == 0 {
			_, header := parseHead(hd.Text)
			session = "Mcp-Session-Id: " + header.Get("Mcp-Session-Id") + "\nMCP-Protocol-Version: 2025-11-25\n"
		}
	}
	events, err := h.Export(id, "", "")
	if err != nil {
		t.Fatal(err)
	}
	events = viaFile(t, events)
	if events[0].Upstream != ref.URL+mcp.Endpoint {
		t.Errorf("start event's upstream %q, want %q", events[0].Upstream, ref.URL+mcp.Endpoint)
	}
	var requests int
	for _, e := range events {
		if e.Kind == tap.KindHTTPRequest {
			requests++
			if got := e.Header.Get("Authorization"); got != "Bearer "+tap.Masked {
				t.Errorf("exchange %d's Authorization is %q, want it masked", e.Exchange, got)
			}
		}
	}
	if requests != len(exportFrames) {
		t.Errorf("%d requests in the recording, want %d", requests, len(exportFrames))
	}
	noFindings(t, events)

	ctx := context.Background()
	diffs, err := tap.ReplayHTTP(ctx, events, mcpServer(t, nil).URL, 0, "", nil)
	if err != nil || len(diffs) != 0 {
		t.Errorf("replay against the same server: %v, differences %v", err, diffs)
	}
	defect := mcpServer(t, func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(`\"words\":3`), []byte(`\"words\":4`)) })
	diffs, err = tap.ReplayHTTP(ctx, events, defect.URL, 0, "", nil)
	if err != nil || len(diffs) != 1 || !strings.Contains(diffs[0].Diff, `words\":4`) {
		t.Errorf("replay against the planted defect: %v, differences %v; want one, in the word count", err, diffs)
	}

	// Opened again, each exchange has the same request body and answer
	// body; the requests' heads differ only in the order of the headers
	// and the masked token.
	same := func(ev Event) bool { return ev.Kind == "http-body" }
	got, want := reopened(t, h, events, same), rowsOf(t, h, id, same)
	if !cmp.Equal(joinBodies(got), joinBodies(want)) {
		t.Errorf("the recording opened again shows other bodies (-got +want):\n%s", cmp.Diff(joinBodies(got), joinBodies(want)))
	}
}

// TestExportNothing: a session that has sent nothing has nothing to
// export, and an unknown one is no session.
func TestExportNothing(t *testing.T) {
	h, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	id := readHello(t, conn).Session
	if _, err := h.Export(id, "", ""); !errors.Is(err, ErrNothingToExport) {
		t.Errorf("export of an idle session: %v, want ErrNothingToExport", err)
	}
	if _, err := h.Export("no-such-session", "", ""); !errors.Is(err, ErrNoSession) {
		t.Errorf("export of an unknown session: %v, want ErrNoSession", err)
	}
}

// mcpServer serves wirelab's MCP server over Streamable HTTP until the
// test ends; change, if set, rewrites each answer's body.
func mcpServer(t *testing.T, change func([]byte) []byte) *httptest.Server {
	handler := mcp.NewServer(tools.New(nil), &mcp.ServerOptions{Version: "test"}).HTTPHandler(nil)
	var h http.Handler = handler
	if change != nil {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, r)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(change(rec.Body.Bytes()))
		})
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(handler.Close) // first: it ends the sessions' streams
	return srv
}

// viaFile writes the events as a recording's file and reads it back, as
// wirelab tap check and replay read it.
func viaFile(t *testing.T, events []tap.Event) []tap.Event {
	t.Helper()
	var b bytes.Buffer
	for _, e := range events {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	read, err := tap.Read(&b)
	if err != nil {
		t.Fatalf("reading the exported recording: %v", err)
	}
	return read
}

func noFindings(t *testing.T, events []tap.Event) {
	t.Helper()
	if r := tapcheck.Check(events); len(r.Findings) != 0 {
		t.Errorf("the check of the exported recording found %d things: %+v", len(r.Findings), r.Findings)
	}
}

// exportRow is what a test compares of a console event: the exchange
// is numbered from 1 in the order of the session's exchanges.
type exportRow struct {
	Dir, Kind string
	Exchange  int
	Text      string
}

// rowsOf returns the kept events of the session id that keep says to.
func rowsOf(t *testing.T, h *Hub, id string, keep func(Event) bool) []exportRow {
	t.Helper()
	kept, ok := h.Transcript(id)
	if !ok {
		t.Fatalf("no session %s", id)
	}
	var rows []exportRow
	ids := map[int64]int{} // the session's exchange ids, numbered in order
	for _, b := range kept {
		var ev Event
		json.Unmarshal(b, &ev)
		if ev.Op != "event" || !keep(ev) {
			continue
		}
		if _, ok := ids[ev.ID]; !ok && ev.ID != 0 {
			ids[ev.ID] = len(ids) + 1
		}
		rows = append(rows, exportRow{Dir: ev.Dir, Kind: ev.Kind, Exchange: ids[ev.ID], Text: ev.Text})
	}
	return rows
}

// reopened opens the events as a recording and returns its rows.
func reopened(t *testing.T, h *Hub, events []tap.Event, keep func(Event) bool) []exportRow {
	t.Helper()
	info, err := h.OpenRecording("exported", events)
	if err != nil {
		t.Fatal(err)
	}
	return rowsOf(t, h, info.ID, keep)
}

// joinBodies joins the body rows of each exchange: the engine reads a
// body in pieces of its own size, a recording in events.
func joinBodies(rows []exportRow) map[int]string {
	out := map[int]string{}
	for _, r := range rows {
		out[r.Exchange] += r.Text
	}
	return out
}
