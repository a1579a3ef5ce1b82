package mcp

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// streamEvent is one event of a stream, with its id.
type streamEvent struct{ id, data string }

// idEvents reads a stream's events, ids included, until the body ends.
func idEvents(resp *http.Response) <-chan streamEvent {
	ch := make(chan streamEvent)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		var ev streamEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.id != "" || ev.data != "" {
					ch <- ev
				}
				ev = streamEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.id = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	return ch
}

// TestHTTPResume: in a 2025-11-25 session, a client whose connection
// breaks in the middle of an SSE answer gets the rest with GET and
// Last-Event-ID, and the broken connection did not cancel the request.
// The stream begins with a priming event, an id and no data.
func TestHTTPResume(t *testing.T) {
	p := &httpPeer{t: t, url: newHTTPServer(t, nil)}
	p.initialize(`{"elicitation":{}}`)
	resp := p.post(`{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"deploy_service","arguments":{"service":"api","env":"production"}}}`)
	stream := idEvents(resp)
	prime := <-stream
	if prime.data != "" || !strings.HasSuffix(prime.id, "-0") {
		t.Fatalf("first event %+v, want an id ending in -0 and no data", prime)
	}
	ask := <-stream
	var q struct {
		ID     json.RawMessage
		Method string
	}
	if json.Unmarshal([]byte(ask.data), &q) != nil || q.Method != "elicitation/create" {
		t.Fatalf("second event %+v, want elicitation/create", ask)
	}
	streamNo, _, _ := strings.Cut(prime.id, "-")
	if ask.id != streamNo+"-1" {
		t.Errorf("the question's event id is %q, want %s-1", ask.id, streamNo)
	}
	// The connection breaks; the question is answered anyway.
	resp.Body.Close()
	if a := p.post(`{"jsonrpc":"2.0","id":` + string(q.ID) + `,"result":{"action":"accept","content":{"confirm":true}}}`); readAll(t, a) != "" || a.StatusCode != http.StatusAccepted {
		t.Fatalf("the answer: %s", a.Status)
	}

	get := func(last string) *http.Response {
		req, _ := http.NewRequest("GET", p.url, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", p.session)
		req.Header.Set("Last-Event-ID", last)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := get(ask.id)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET with Last-Event-ID %s: %s %s", ask.id, r.Status, readAll(t, r))
	}
	var rest []streamEvent
	for ev := range idEvents(r) {
		rest = append(rest, ev)
	}
	if len(rest) != 1 || !strings.Contains(rest[0].data, `"id":"d"`) || !strings.Contains(rest[0].data, `"status":"deployed"`) || rest[0].id != streamNo+"-2" {
		t.Errorf("after Last-Event-ID %s the stream gave %+v, want only the deploy's result, as event %s-2", ask.id, rest, streamNo)
	}
	// Resuming from the start replays everything, the question too.
	var all []streamEvent
	for ev := range idEvents(get(prime.id)) {
		all = append(all, ev)
	}
	if len(all) != 2 || all[0].id != ask.id {
		t.Errorf("after Last-Event-ID %s the stream gave %+v, want the question and the result", prime.id, all)
	}
	// A stream the session never had is 404, with the reason.
	if r := get("99-0"); r.StatusCode != http.StatusNotFound || !strings.Contains(readAll(t, r), "no stream") {
		t.Errorf("GET with Last-Event-ID 99-0: %s, want 404", r.Status)
	}
}
