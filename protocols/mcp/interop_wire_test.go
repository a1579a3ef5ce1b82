package mcp

// What the interop tests record: the messages on the wire, for the
// handshake checks and for failure messages, and the goroutines left
// behind.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// interopWire records the messages the client sent and the server's
// answers, in order, for the handshake checks and for failure messages.
type interopWire struct {
	mu       sync.Mutex // guards the fields below and both directions' partial lines
	lines    []string   // "-> msg" from the client, "<- msg" from the server
	messages []interopMessage
}

// interopMessage is what the handshake checks read of a message.
type interopMessage struct {
	fromClient bool
	raw        string
	ID         json.RawMessage `json:"id"`
	Method     string          `json:"method"`
	Params     struct {
		ProtocolVersion string         `json:"protocolVersion"`
		Meta            map[string]any `json:"_meta"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code int64 `json:"code"`
	} `json:"error"`
}

func (m interopMessage) protocolVersion() string { return m.Params.ProtocolVersion }
func (m interopMessage) metaVersion() string {
	v, _ := m.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string)
	return v
}

// sent and answered return writers for the two directions of a stdio
// stream, which record each line as a message.
func (w *interopWire) sent() io.Writer     { return &interopLines{wire: w, fromClient: true} }
func (w *interopWire) answered() io.Writer { return &interopLines{wire: w} }

type interopLines struct {
	wire       *interopWire
	fromClient bool
	partial    []byte // a line not yet ended
}

func (l *interopLines) Write(p []byte) (int, error) {
	l.wire.mu.Lock()
	defer l.wire.mu.Unlock()
	l.partial = append(l.partial, p...)
	for {
		line, rest, ok := bytes.Cut(l.partial, []byte("\n"))
		if !ok {
			return len(p), nil
		}
		l.wire.addLocked(l.fromClient, line)
		l.partial = rest
	}
}

// add records one whole message.
func (w *interopWire) add(fromClient bool, msg []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.addLocked(fromClient, msg)
}

func (w *interopWire) addLocked(fromClient bool, msg []byte) {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 {
		return
	}
	arrow := "<- "
	if fromClient {
		arrow = "-> "
	}
	w.lines = append(w.lines, arrow+string(msg))
	m := interopMessage{fromClient: fromClient, raw: string(msg)}
	if json.Unmarshal(msg, &m) == nil {
		w.messages = append(w.messages, m)
	}
}

// requests returns the requests the client sent, in order.
func (w *interopWire) requests() []interopMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []interopMessage
	for _, m := range w.messages {
		if m.fromClient && m.Method != "" && m.ID != nil {
			out = append(out, m)
		}
	}
	return out
}

// answerTo returns the server's answer to a request: the message from
// the server with its id and no method.
func (w *interopWire) answerTo(req interopMessage) (interopMessage, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, m := range w.messages {
		if !m.fromClient && m.Method == "" && bytes.Equal(m.ID, req.ID) {
			return m, true
		}
	}
	return interopMessage{}, false
}

func (w *interopWire) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines, "\n")
}

// interopRecorder is an http.RoundTripper that records POST bodies and
// the answers that are plain JSON. An SSE answer is left alone: the
// client reads it as it arrives, and the handshake checks need only the
// plain ones.
type interopRecorder struct {
	base http.RoundTripper
	wire *interopWire
}

func (r *interopRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		r.wire.add(true, body)
	}
	resp, err := r.base.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "application/json" {
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		r.wire.add(false, body)
	} else {
		r.wire.add(false, fmt.Appendf(nil, "(HTTP %d %s, not recorded)", resp.StatusCode, mt))
	}
	return resp, nil
}

// interopNoLeaks fails the test if, after the cleanups registered after
// it have run, a goroutine started during the test is still running code
// from this module's protocols or from the SDK. Real sockets are involved,
// so testing/synctest cannot watch these goroutines; instead the check
// looks again until they are gone or interopWait has passed.
func interopNoLeaks(t *testing.T) {
	t.Helper()
	before := interopGoroutines()
	t.Cleanup(func() {
		deadline := time.Now().Add(interopWait)
		for {
			var leaked []string
			for id, stack := range interopGoroutines() {
				if _, old := before[id]; old {
					continue
				}
				if strings.Contains(stack, "github.com/wirelab/wirelab/protocols/") || strings.Contains(stack, "github.com/modelcontextprotocol/go-sdk") {
					leaked = append(leaked, stack)
				}
			}
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%d goroutine(s) outlived the session:\n\n%s", len(leaked), strings.Join(leaked, "\n\n"))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// interopGoroutines returns the stack of every goroutine, by id.
func interopGoroutines() map[string]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	stacks := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		// "goroutine 42 [chan receive]:"
		header, _, _ := strings.Cut(g, "\n")
		fields := strings.Fields(header)
		if len(fields) >= 2 && fields[0] == "goroutine" {
			stacks[fields[1]] = g
		}
	}
	return stacks
}
