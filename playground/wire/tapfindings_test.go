package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
)

// defectRecording is the recording of the find-the-defect exercise: a
// stdio MCP session whose server drops structuredContent.
func defectRecording(t *testing.T) []tap.Event {
	t.Helper()
	f, err := os.Open("../../exercises/find-the-defect/recording.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := tap.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// httpRecording is a recording of an HTTP tap of a Streamable HTTP MCP
// server with two defects: it answers the host's notification, and
// answers on a stream an id nobody asked.
func httpRecording() []tap.Event {
	t0 := time.Date(2026, 11, 25, 21, 0, 0, 0, time.UTC)
	var events []tap.Event
	add := func(e tap.Event) {
		e.Seq, e.T = len(events)+1, t0.Add(time.Duration(len(events))*time.Millisecond)
		e.Size = len(e.Data)
		events = append(events, e)
	}
	jsonHeader := func(kv ...string) http.Header {
		h := http.Header{"Content-Type": {"application/json"}}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	add(tap.Event{Kind: tap.KindStart, Format: tap.Format, Upstream: "http://127.0.0.1:8021/mcp"})
	exchange := func(n int, req http.Header, body string, head http.Header, answers ...string) {
		add(tap.Event{Kind: tap.KindHTTPRequest, Dir: tap.Out, Exchange: n, Method: "POST", URL: "http://127.0.0.1:8030/mcp", Header: req, Data: body})
		add(tap.Event{Kind: tap.KindHTTPResponse, Dir: tap.In, Exchange: n, Status: 200, Header: head})
		for _, a := range answers {
			kind := tap.KindHTTPBody
			if head.Get("Content-Type") == "text/event-stream" {
				kind = tap.KindSSEEvent
			}
			add(tap.Event{Kind: kind, Dir: tap.In, Exchange: n, Data: a})
		}
		add(tap.Event{Kind: tap.KindHTTPEnd, Dir: tap.In, Exchange: n})
	}
	session := []string{"Mcp-Session-Id", "s1", "Mcp-Protocol-Version", "2025-11-25"}
	exchange(1, jsonHeader(), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`,
		jsonHeader("Mcp-Session-Id", "s1"), `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`)
	exchange(2, jsonHeader(session...), `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		jsonHeader(), `{"jsonrpc":"2.0","id":null,"result":{}}`)
	exchange(3, jsonHeader(session...), `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		http.Header{"Content-Type": {"text/event-stream"}},
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}",
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[]}}")
	return events
}

// tapEvents reads a tap's session as a console does, until the event
// done says is the last: the findings (applied by index, as the page
// does), and the seq of every other event.
func tapEvents(t *testing.T, events <-chan []byte, done func(tapEvent) bool) (findings []tapcheck.Finding, seqs map[int]bool) {
	t.Helper()
	seqs = map[int]bool{}
	timeout := time.After(patience)
	for {
		var b []byte
		select {
		case b = <-events:
		case <-timeout:
			t.Fatalf("waiting for the session's events; findings so far: %+v", findings)
		}
		var ev tapEvent
		if err := json.Unmarshal(b, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Kind != "finding" {
			if ev.Seq != 0 {
				seqs[ev.Seq] = true
			}
			if done(ev) {
				return findings, seqs
			}
			continue
		}
		f := ev.Finding
		if f == nil || ev.Seq != f.Event {
			t.Fatalf("a finding event %s: its seq must be its finding's event", b)
		}
		if f.Event != 0 && !seqs[f.Event] {
			t.Errorf("finding %s came before any event with seq %d: the page has no row to put it on", f.Code, f.Event)
		}
		for f.Index >= len(findings) {
			findings = append(findings, tapcheck.Finding{})
		}
		findings[f.Index] = f.Finding
	}
}

// TestOpenRecording: a recording opened in the playground is a session
// that a console watches, its events those a live tap's followers get,
// each carrying the seq of the tap's event, and its findings, marked
// after the events they name, are those wirelab tap check makes of the
// same recording. The list of taps shows it as recorded, with its
// counts.
func TestOpenRecording(t *testing.T) {
	for _, tt := range []struct {
		name   string
		events []tap.Event
		speaks string
	}{
		{"stdio", defectRecording(t), "mcp"},
		{"http", httpRecording(), "mcp"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newTestHub(t, Targets{})
			defer h.Close()
			info, err := h.OpenRecording("recording.jsonl", tt.events)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			feed, err := h.Subscribe(ctx, info.ID)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := tapEvents(t, feed, func(ev tapEvent) bool { return strings.HasPrefix(ev.Text, "the recording ends here") })
			want := tapcheck.Check(tt.events)
			if len(want.Findings) == 0 {
				t.Fatal("the recording has no findings: the test tests nothing")
			}
			if diff := cmp.Diff(want.Findings, got); diff != "" {
				t.Errorf("the findings marked differ from wirelab tap check's (-check +marked):\n%s", diff)
			}
			taps := h.Taps()
			if len(taps) != 1 {
				t.Fatalf("taps: %+v, want the recording", taps)
			}
			i := taps[0]
			if !i.Recorded || i.Events != len(tt.events) || i.Errors != want.Count(tapcheck.SeverityError) ||
				i.Warnings != want.Count(tapcheck.SeverityWarning) || i.Speaks != tt.speaks || i.Name != "recording.jsonl" {
				t.Errorf("the recording as listed: %+v, want recorded, %d events, %d errors, %d warnings, speaking %s",
					i, len(tt.events), want.Count(tapcheck.SeverityError), want.Count(tapcheck.SeverityWarning), tt.speaks)
			}
		})
	}
}

// TestOpenRecordingLimit: the recordings open at once are at most
// maxRecordings; one more closes the oldest, whose watchers hear that
// its session ended. A recording that is not one is refused.
func TestOpenRecordingLimit(t *testing.T) {
	h := newTestHub(t, Targets{})
	defer h.Close()
	events := defectRecording(t)
	first, err := h.OpenRecording("first", events)
	if err != nil {
		t.Fatal(err)
	}
	feed, err := h.Subscribe(context.Background(), first.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range maxRecordings {
		if _, err := h.OpenRecording(fmt.Sprint(i), events); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := h.Transcript(first.ID); ok {
		t.Errorf("%s is still open after %d newer recordings", first.ID, maxRecordings)
	}
	var last string
	for b := range feed {
		last = string(b)
	}
	if !strings.Contains(last, `"kind":"session-end"`) {
		t.Errorf("the oldest recording's watcher heard last %s, want its session's end", last)
	}
	taps := h.Taps()
	if len(taps) != maxRecordings || taps[0].Name != fmt.Sprint(maxRecordings-1) {
		t.Errorf("taps: %d, the newest %q; want %d, the newest first", len(taps), taps[0].Name, maxRecordings)
	}
	if _, err := h.OpenRecording("x", []tap.Event{{Seq: 1, Kind: tap.KindLine}}); err == nil {
		t.Error("a recording without its start event was opened")
	}
}

// TestTapLiveFindings: a live tap's findings are marked as its events
// come, and are wirelab tap check's of what the tap recorded.
func TestTapLiveFindings(t *testing.T) {
	h := newTestHub(t, Targets{})
	srv := serveTaps(t, h, "")
	rec := tap.NewRecorder(nil)
	events := defectRecording(t)
	rec.Add(events[0])
	pub, err := Publish(srv.URL, "acme-tools", rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	waitFor(t, func() bool { _, ok := h.Transcript("tap-1"); return ok })
	feed, err := h.Subscribe(context.Background(), "tap-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events[1:] {
		rec.Add(e)
	}
	pub.Close()
	got, _ := tapEvents(t, feed, func(ev tapEvent) bool { return ev.Kind == "session-end" })
	if diff := cmp.Diff(tapcheck.Check(rec.Events()).Findings, got); diff != "" {
		t.Errorf("the findings marked live differ from wirelab tap check's (-check +marked):\n%s", diff)
	}
}

// TestTapCheckStopsAtAGap: when events of a live tap did not reach the
// playground (Publish's note repeats the last seq sent), the check says
// it stops there and marks nothing after, rather than marking answers to
// requests it never saw.
func TestTapCheckStopsAtAGap(t *testing.T) {
	h := newTestHub(t, Targets{})
	srv := serveTaps(t, h, "")
	conn := dialPath(t, srv, "/ws/tap?name=gap")
	defer conn.Close()
	waitFor(t, func() bool { _, ok := h.Transcript("tap-1"); return ok })
	feed, err := h.Subscribe(context.Background(), "tap-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []tap.Event{
		{Seq: 1, Kind: tap.KindStart, Format: tap.Format, Command: []string{"srv"}},
		{Seq: 2, Kind: tap.KindLine, Dir: tap.In, Data: "noise before the gap"},
		{Seq: 2, Kind: tap.KindNote, Data: "3 events are not shown: the playground fell behind, and the tap no longer keeps them"},
		{Seq: 6, Kind: tap.KindLine, Dir: tap.In, Data: `{"jsonrpc":"2.0","id":9,"result":{}}`},
	} {
		if err := conn.WriteJSON(e); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close()
	var notes []string
	got, _ := tapEvents(t, feed, func(ev tapEvent) bool {
		if ev.Kind == "note" {
			notes = append(notes, ev.Text)
		}
		return ev.Kind == "session-end"
	})
	if len(got) != 1 || got[0].Code != "stdout-noise" || got[0].Event != 2 {
		t.Errorf("findings %+v, want only the noise before the gap", got)
	}
	if len(notes) < 2 || !strings.HasPrefix(notes[1], "the check stops after event 2: events of this tap did not reach the playground") {
		t.Errorf("notes %q, want the check to say it stops at the gap", notes)
	}
}
