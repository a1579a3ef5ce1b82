package stdio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func start(t *testing.T, mode string, opts *ClientOptions) *Client {
	t.Helper()
	c, err := Start(serverArgv(t, mode), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestClientCalls(t *testing.T) {
	c := start(t, "ok", nil)
	ctx := context.Background()

	got, err := c.Call(ctx, "word_count", json.RawMessage(`{"text":"read the wire"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"words":3,"chars":13}`, string(got)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}

	_, err = c.Call(ctx, "weather", json.RawMessage(`{"city":"Oslo"}`), "")
	var werr *Error
	if !errors.As(err, &werr) || !werr.ToolError() || werr.Code != "tool_failed" {
		t.Errorf("weather: err = %v, want a tool_failed tool error", err)
	}

	_, err = c.Call(ctx, "nope", nil, "")
	if !errors.As(err, &werr) || werr.ToolError() || werr.Code != "unknown_tool" {
		t.Errorf("unknown tool: err = %v, want an unknown_tool protocol error", err)
	}

	// The same process answers again: one server for many calls.
	if _, err := c.Call(ctx, "word_count", json.RawMessage(`{"text":"again"}`), "1.0"); err != nil {
		t.Errorf("second call: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := c.Call(ctx, "word_count", json.RawMessage(`{"text":"closed"}`), ""); err == nil {
		t.Error("call after Close succeeded")
	}
}

// TestClientConcurrentCalls checks that answers reach the right caller when
// calls overlap: each goroutine counts a different number of words.
func TestClientConcurrentCalls(t *testing.T) {
	c := start(t, "ok", nil)
	var wg sync.WaitGroup
	for i := 1; i <= 20; i++ {
		wg.Go(func() {
			text := strings.Repeat("w ", i)
			got, err := c.Call(context.Background(), "word_count", json.RawMessage(fmt.Sprintf(`{"text":%q}`, text)), "")
			if err != nil {
				t.Error(err)
				return
			}
			if want := fmt.Sprintf(`{"words":%d,"chars":%d}`, i, 2*i); string(got) != want {
				t.Errorf("call %d got %s, want %s", i, got, want)
			}
		})
	}
	wg.Wait()
}

func TestClientLongAnswer(t *testing.T) {
	// 200 KiB of text: far past bufio.Scanner's default 64 KiB line.
	c := start(t, "ok", nil)
	text := strings.Repeat("abcd ", 40<<10)
	got, err := c.Call(context.Background(), "word_count", json.RawMessage(fmt.Sprintf(`{"text":%q}`, text)), "")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`{"words":%d,"chars":%d}`, 40<<10, len(text)); string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestClientTooLargeRequest(t *testing.T) {
	// The server's answer to an over-long line has no id; it still reaches
	// the call that sent the line, instead of that call timing out.
	c := start(t, "ok", &ClientOptions{Timeout: 10 * time.Second})
	text := strings.Repeat("x", DefaultMaxLine)
	_, err := c.Call(context.Background(), "word_count", json.RawMessage(fmt.Sprintf(`{"text":%q}`, text)), "")
	var werr *Error
	if !errors.As(err, &werr) || werr.Code != CodeTooLarge {
		t.Fatalf("err = %v, want too_large", err)
	}
	if _, err := c.Call(context.Background(), "word_count", json.RawMessage(`{"text":"after"}`), ""); err != nil {
		t.Errorf("call after too_large: %v", err)
	}
}

func TestClientNoisyServer(t *testing.T) {
	c := start(t, "noisy", &ClientOptions{Timeout: 300 * time.Millisecond})
	// A child slow to start (a loaded machine, -race) may not have
	// printed its line when the first call times out; the client keeps
	// the line it saw, so a later call's timeout names it.
	var err error
	for range 20 {
		_, err = c.Call(context.Background(), "word_count", json.RawMessage(`{"text":"x"}`), "")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want a timeout", err)
		}
		if strings.Contains(err.Error(), "server starting") {
			break
		}
	}
	for _, want := range []string{"server starting on stdio...", "logs belong on stderr"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestClientServerCrash(t *testing.T) {
	var stderr strings.Builder
	c := start(t, "crash", &ClientOptions{Stderr: &stderr})
	_, err := c.Call(context.Background(), "word_count", json.RawMessage(`{"text":"x"}`), "")
	if err == nil || !strings.Contains(err.Error(), "stdout closed") {
		t.Fatalf("err = %v, want the server's exit reported", err)
	}
	if err := c.Close(); err == nil || !strings.Contains(err.Error(), "exit status 2") {
		t.Errorf("Close = %v, want the exit status", err)
	}
	if !strings.Contains(stderr.String(), "panic: something broke") {
		t.Errorf("stderr not passed through: %q", stderr.String())
	}
}

func TestCloseKillsStubbornServer(t *testing.T) {
	said := &saidWriter{text: "ignoring SIGTERM", said: make(chan struct{})}
	c := start(t, "stubborn", &ClientOptions{ShutdownGrace: 100 * time.Millisecond, Stderr: said})
	// Close before the child ignores SIGTERM would end it by SIGTERM: on
	// a busy machine the child may not have got that far yet.
	<-said.said
	err := c.Close()
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Close = %v, want it to report the kill", err)
	}
	if c.proc.cmd.ProcessState == nil {
		t.Error("process was not waited for")
	}
}

func TestStartMissingCommand(t *testing.T) {
	if _, err := Start([]string{"/nonexistent/wirelab-server"}, nil); err == nil {
		t.Error("Start of a missing program succeeded")
	}
	if _, err := Start(nil, nil); err == nil {
		t.Error("Start of an empty command succeeded")
	}
}

// BenchmarkRoundTrip measures one call over a long-lived pipe to a real
// server process: the cost a client pays per call once the server runs.
func BenchmarkRoundTrip(b *testing.B) {
	c, err := Start(serverArgv(b, "ok"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	args := json.RawMessage(`{"text":"read the wire"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Call(ctx, "word_count", args, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// saidWriter closes said once what is written to it has held text.
type saidWriter struct {
	mu   sync.Mutex
	buf  strings.Builder
	text string
	said chan struct{}
}

func (w *saidWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	had := strings.Contains(w.buf.String(), w.text)
	w.buf.Write(p)
	if !had && strings.Contains(w.buf.String(), w.text) {
		close(w.said)
	}
	return len(p), nil
}
