package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestClientAnswersOnGETStream: in the 2025-11-25 era over Streamable
// HTTP, a server that answers POSTs with plain JSON has nowhere to put a
// question for the user while a tool runs but the GET stream: "The
// server MAY send JSON-RPC requests and notifications on the stream".
// The official Go SDK's server, with JSONResponse, does just that. This
// client must have that stream open, hand the elicitation/create it
// reads there to Elicit, and POST the answer; else the call waits
// forever.
func TestClientAnswersOnGETStream(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "sdk-server", Version: "1.0"}, nil)
	type confirmOut struct {
		Action  string `json:"action"`
		Confirm bool   `json:"confirm"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "confirm", Description: "Ask the user to confirm."},
		func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, confirmOut, error) {
			res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{
				Message:         "Go ahead?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`),
			})
			if err != nil {
				return nil, confirmOut{}, err
			}
			confirm, _ := res.Content["confirm"].(bool)
			return nil, confirmOut{Action: res.Action, Confirm: confirm}, nil
		})
	rec := &getStreamRecorder{next: sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{JSONResponse: true})}

	asked := make(chan ElicitParams, 1)
	c, err := connectHTTP(t, rec, "/", &ClientOptions{
		ProtocolVersion: LegacyVersion,
		Elicit: func(_ context.Context, p ElicitParams) (ElicitResult, error) {
			asked <- p
			return ElicitResult{Action: "accept", Content: json.RawMessage(`{"confirm":true}`)}, nil
		},
	})
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	if c.Modern() {
		t.Fatal("pinned to 2025-11-25, the client spoke 2026-07-28")
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()

	res, err := c.CallTool(ctx, "confirm", json.RawMessage(`{}`), false)
	if err != nil {
		t.Fatalf("tools/call confirm: %v\nGET stream:\n%s", err, rec.stream())
	}
	if got := string(res.StructuredContent); got != `{"action":"accept","confirm":true}` {
		t.Errorf("structuredContent = %s, want the user's answer as the tool saw it", got)
	}
	select {
	case p := <-asked:
		if p.Message != "Go ahead?" {
			t.Errorf("Elicit got message %q, want %q", p.Message, "Go ahead?")
		}
	default:
		t.Error("the call succeeded without Elicit being asked")
	}
	if s := rec.stream(); !strings.Contains(s, `"method":"elicitation/create"`) {
		t.Errorf("the question did not travel on the GET stream; it carried:\n%s", s)
	}
	if !rec.postedAnswer() {
		t.Error("no POST carried the answer to elicitation/create")
	}
}

// getStreamRecorder passes requests to next, keeping what the GET
// stream carried and whether a POST carried a response (a message with
// a result and no method): the client's answer to the server's request.
type getStreamRecorder struct {
	next http.Handler

	mu       sync.Mutex // guards the fields below
	get      bytes.Buffer
	answered bool
}

func (r *getStreamRecorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	switch req.Method {
	case http.MethodGet:
		w = &teeWriter{ResponseWriter: w, rec: r}
	case http.MethodPost:
		body, err := readBody(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var msg struct {
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.Method == "" && msg.Result != nil {
			r.mu.Lock()
			r.answered = true
			r.mu.Unlock()
		}
	}
	r.next.ServeHTTP(w, req)
}

func (r *getStreamRecorder) stream() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.get.String()
}

func (r *getStreamRecorder) postedAnswer() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.answered
}

// readBody reads a request's body and puts it back for the next handler.
func readBody(req *http.Request) ([]byte, error) {
	var b bytes.Buffer
	if _, err := b.ReadFrom(req.Body); err != nil {
		return nil, err
	}
	req.Body.Close()
	req.Body = io.NopCloser(bytes.NewReader(b.Bytes()))
	return b.Bytes(), nil
}

// teeWriter keeps a copy of what the GET stream sends. Unwrap lets
// http.ResponseController reach the real writer to flush each event.
type teeWriter struct {
	http.ResponseWriter
	rec *getStreamRecorder
}

func (w *teeWriter) Write(p []byte) (int, error) {
	w.rec.mu.Lock()
	w.rec.get.Write(p)
	w.rec.mu.Unlock()
	return w.ResponseWriter.Write(p)
}

func (w *teeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
