package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestServeStdioStopsWithContext: a session whose client has gone quiet
// (stdin open, nothing written) still ends when its context does.
func TestServeStdioStopsWithContext(t *testing.T) {
	in, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	// Ends when cancel below stops ServeStdio.
	go func() { done <- NewServer(tools.New(nil), nil).ServeStdio(ctx, in, io.Discard) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("ServeStdio returned %v, want context.Canceled", err)
	}
}

// TestServeStdioOversizedLine: a line longer than DefaultMaxMessage is
// answered with -32600 (id null: the id is somewhere in the skipped
// bytes), and the next line is read as usual.
func TestServeStdioOversizedLine(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", DefaultMaxMessage) + `"}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n")
	var out bytes.Buffer
	if err := NewServer(tools.New(nil), nil).ServeStdio(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: message longer than 1048576 bytes; it was skipped"}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// TestServeStdioRequestBeforeInitialize: a request written before
// initialize is refused even when initialize follows it at once, in the
// same write; the session is judged as it was when the request arrived.
func TestServeStdioRequestBeforeInitialize(t *testing.T) {
	for range 20 { // a race shows itself only sometimes
		in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
		var out bytes.Buffer
		if err := NewServer(tools.New(nil), nil).ServeStdio(context.Background(), in, &out); err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(out.String(), "\n")
		if !strings.Contains(first, `"id":1,"error":{"code":-32600`) {
			t.Fatalf("tools/list before initialize was answered\n%s\nwant -32600 first", out.String())
		}
	}
}

// TestPagination walks tools/list, resources/list and prompts/list page
// by page with a small page size: every item comes exactly once, the last
// page has no nextCursor, and a made-up cursor is -32602.
func TestPagination(t *testing.T) {
	srv := NewServer(tools.New(nil), &ServerOptions{PageSize: 2})
	ss := newSession(srv, func(any) error { return nil })
	defer ss.close()
	if _, err := ss.initialize(json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		method, member string
		want           int
	}{
		{"tools/list", "tools", len(srv.cat.List())},
		{"resources/list", "resources", len(srv.resources)},
		{"prompts/list", "prompts", len(srv.prompts)},
	} {
		t.Run(tt.method, func(t *testing.T) {
			seen, pages, cursor := map[string]bool{}, 0, ""
			for {
				params, _ := json.Marshal(ListParams{Cursor: cursor})
				resp := ss.handleRequest(context.Background(), &jsonrpc.Request{ID: jsonrpc.IntID(1), Method: tt.method, Params: params}, ss.out, caller{})
				if resp.Error != nil {
					t.Fatalf("page %d: %v", pages+1, resp.Error)
				}
				var page map[string]json.RawMessage
				json.Unmarshal(resp.Result, &page)
				var items []map[string]any
				json.Unmarshal(page[tt.member], &items)
				if len(items) == 0 || len(items) > 2 {
					t.Fatalf("page %d has %d items, want 1 or 2", pages+1, len(items))
				}
				for _, it := range items {
					key := fmt.Sprint(it["name"], it["uri"])
					if seen[key] {
						t.Errorf("%s came twice", key)
					}
					seen[key] = true
				}
				pages++
				if page["nextCursor"] == nil {
					break
				}
				json.Unmarshal(page["nextCursor"], &cursor)
			}
			if len(seen) != tt.want || pages != (tt.want+1)/2 {
				t.Errorf("%d items in %d pages, want %d in %d", len(seen), pages, tt.want, (tt.want+1)/2)
			}
		})
	}
	resp := ss.handleRequest(context.Background(), &jsonrpc.Request{ID: jsonrpc.IntID(2), Method: "tools/list", Params: json.RawMessage(`{"cursor":"page-2"}`)}, ss.out, caller{})
	if resp.Error == nil || resp.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("a made-up cursor: %+v, want -32602", resp)
	}
}

// TestStdioInputEndsWithQuestionPending: a client that closes stdin while
// the server waits for its answer to elicitation/create does not keep
// the server running: the call fails as a tool error, and ServeStdio
// returns. (FuzzServeStdio found this from the elicitation transcript.)
func TestStdioInputEndsWithQuestionPending(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deploy_service","arguments":{"service":"api","env":"production"}}}`,
	}, "\n") + "\n"
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Millisecond}), &ServerOptions{Version: "test"})
	var out bytes.Buffer
	done := make(chan error, 1)
	// Ends when the session has answered everything after stdin ends.
	go func() { done <- srv.ServeStdio(context.Background(), strings.NewReader(in), &out) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(fuzzPatience):
		t.Fatalf("ServeStdio still waits for an answer %v after stdin ended", fuzzPatience)
	}
	const want = `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"deploy_service did not run: the user could not be asked: the client's input has ended, so it cannot answer"}],"isError":true}}`
	if !strings.Contains(out.String(), want+"\n") {
		t.Errorf("got:\n%s\nwant a line:\n%s", out.String(), want)
	}
}
