package cli

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestServeRunnableFrame is the course's path end to end with the real
// binary: the lesson list, a lesson with runnable frames and the script
// that runs them, and a frame sent over the websocket to a child
// "wirelab server mcp" that the playground starts for the tab.
func TestServeRunnableFrame(t *testing.T) {
	url := startServer(t, "playground", "serve", "--no-open", "--addr", "127.0.0.1:0")
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s = %d", path, resp.StatusCode)
		}
		return string(body)
	}
	if list := get("/learn/"); !strings.Contains(list, `href="/learn/mcp-by-hand"`) {
		t.Fatalf("the lesson list does not link the MCP lesson:\n%s", list)
	}
	lesson := get("/learn/mcp-by-hand")
	for _, want := range []string{`<div class="frame" data-target="mcp-stdio">`, `<script type="module" src="/static/frames.js">`} {
		if !strings.Contains(lesson, want) {
			t.Errorf("the lesson lacks %s", want)
		}
	}
	if js := get("/static/frames.js"); !strings.Contains(js, `from "./wire.js"`) || !strings.Contains(js, `new WireSocket()`) {
		t.Errorf("frames.js is not the frame script")
	}
	if js := get("/static/wire.js"); !strings.Contains(js, `"/ws"`) {
		t.Errorf("wire.js does not open the playground's websocket")
	}

	ws := "ws" + strings.TrimPrefix(url, "http") + "/ws"
	conn, _, err := websocket.DefaultDialer.Dial(ws, http.Header{"Origin": {url}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	frame := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`
	if err := conn.WriteJSON(map[string]any{"op": "send", "id": 1, "target": "mcp-stdio", "frame": frame}); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var ev struct{ Op, Dir, Kind, Text, Message string }
		if err := conn.ReadJSON(&ev); err != nil {
			t.Fatalf("waiting for the answer: %v", err)
		}
		if ev.Op == "error" {
			t.Fatalf("the playground refused the frame: %s", ev.Message)
		}
		if ev.Dir == "in" && ev.Kind == "line" {
			if !strings.Contains(ev.Text, `"protocolVersion":"2025-11-25"`) {
				t.Errorf("initialize answer: %s", ev.Text)
			}
			return
		}
	}
}

// TestServeEveryAddressOpensLoopback: with --addr 0.0.0.0:PORT the
// browser is sent to 127.0.0.1:PORT, an address a page can be for and
// where it counts as this machine's, not to http://0.0.0.0, which the
// playground's Host check refuses.
func TestServeEveryAddressOpensLoopback(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, []string{"--addr", "0.0.0.0:0"}, Env{Stdout: io.Discard, Stderr: io.Discard,
			OpenBrowser: func(url string) error { opened <- url; return nil }})
	}()
	select {
	case url := <-opened:
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Errorf("serve --addr 0.0.0.0:0 opened %s, want http://127.0.0.1:PORT/...", url)
		}
	case err := <-done:
		t.Fatalf("serve returned before opening a browser: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("serve opened no browser within a minute")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve after cancel: %v", err)
	}
}

// TestServeOneAddressKeepsLoopback: with --addr on one address of this
// machine that is not loopback, and no classroom, wirelab listens on
// 127.0.0.1 at the same port too and opens the browser there. A page
// there is this machine's: its websocket may start processes. A page
// opened at the address comes from that address, as another machine's
// would, and may only read and follow.
func TestServeOneAddressKeepsLoopback(t *testing.T) {
	ip := machineIPv4()
	if ip == nil {
		t.Skip("this machine has no IPv4 address but loopback")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, []string{"--addr", net.JoinHostPort(ip.String(), "0")}, Env{Stdout: io.Discard, Stderr: io.Discard,
			OpenBrowser: func(url string) error { opened <- url; return nil }})
	}()
	var page string
	select {
	case page = <-opened:
	case err := <-done:
		t.Fatalf("serve returned before opening a browser: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("serve opened no browser within a minute")
	}
	local, _, _ := strings.Cut(strings.TrimPrefix(page, "http://"), "/")
	if !strings.HasPrefix(local, "127.0.0.1:") {
		t.Fatalf("serve --addr %s:0 opened %s, want http://127.0.0.1:PORT/...", ip, page)
	}
	port := strings.TrimPrefix(local, "127.0.0.1:")
	for _, c := range []struct {
		host    string
		thisOne bool
	}{{local, true}, {net.JoinHostPort(ip.String(), port), false}} {
		conn, _, err := websocket.DefaultDialer.Dial("ws://"+c.host+"/ws", http.Header{"Origin": {"http://" + c.host}})
		if err != nil {
			t.Fatalf("the websocket at %s: %v", c.host, err)
		}
		var hello struct {
			Op    string
			Local bool
		}
		err = conn.ReadJSON(&hello)
		conn.Close()
		if err != nil || hello.Op != "hello" || hello.Local != c.thisOne {
			t.Errorf("the hello at %s: %+v %v, want local=%v", c.host, hello, err, c.thisOne)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve after cancel: %v", err)
	}
}
