package mcp

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// errStreamDone is returned for a message sent after its stream ended.
var errStreamDone = errors.New("the stream has ended")

// sseStream writes Server-Sent Events, one JSON-RPC message per event:
//
//	data: {"jsonrpc":"2.0","method":"notifications/progress",...}
//	(an empty line ends the event)
//
// Each event is flushed at once, so the client sees it while the server
// is still working.
type sseStream struct {
	mu      sync.Mutex // guards w, started and done: one event at a time
	w       http.ResponseWriter
	started bool // the header has been sent
	done    bool // no more events
}

func newSSEStream(w http.ResponseWriter) *sseStream { return &sseStream{w: w} }

// start sends the header; the body stays open for events.
func (s *sseStream) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.startLocked()
}

func (s *sseStream) startLocked() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	// Proxies must neither cache the stream nor hold it back.
	h.Set("Cache-Control", "no-cache")
	s.w.WriteHeader(http.StatusOK)
	http.NewResponseController(s.w).Flush()
}

// send writes one message as an event.
func (s *sseStream) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return errStreamDone
	}
	s.startLocked()
	// JSON from encoding/json has no raw newlines, so one data line holds
	// the whole message.
	if _, err := s.w.Write(append(append([]byte("data: "), b...), '\n', '\n')); err != nil {
		return err
	}
	return http.NewResponseController(s.w).Flush()
}

// event writes one event with an id; nil data makes the priming event,
// an id and an empty data field.
func (s *sseStream) event(id string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return errStreamDone
	}
	s.startLocked()
	b := []byte("id: " + id + "\ndata:")
	if data != nil {
		b = append(append(b, ' '), data...)
	}
	if _, err := s.w.Write(append(b, '\n', '\n')); err != nil {
		return err
	}
	return http.NewResponseController(s.w).Flush()
}

// comment writes an SSE comment, a line that clients ignore and people
// read.
func (s *sseStream) comment(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.startLocked()
	s.w.Write([]byte(": " + text + "\n\n"))
	http.NewResponseController(s.w).Flush()
}

// close ends the stream: later sends fail. The handler returning is what
// ends the HTTP response.
func (s *sseStream) close() {
	s.mu.Lock()
	s.done = true
	s.mu.Unlock()
}

// postReply answers a POST that carried a request. The spec lets the
// server choose: one JSON body, or an SSE stream that carries messages
// about the request and then the answer. This server chooses as late as it
// can: a request that produces only its answer gets plain JSON; the first
// message before the answer (progress, a log message, a question for the
// user) turns the reply into a stream.
type postReply struct {
	w      http.ResponseWriter
	mu     sync.Mutex // guards stream and resume
	stream *sseStream // nil until the first message before the answer
	// resumable, when set, makes the stream resumable (resume.go): it
	// is called when the stream begins.
	resumable func() *replay
	resume    *replay
}

// send sends a message that belongs to the request, before its answer.
func (p *postReply) send(msg any) error {
	p.mu.Lock()
	if p.stream == nil {
		p.stream = newSSEStream(p.w)
		if p.resumable != nil {
			p.resume = p.resumable()
			p.resume.begin(p.stream)
		}
	}
	stream, resume := p.stream, p.resume
	p.mu.Unlock()
	if resume != nil {
		return resume.send(msg)
	}
	return stream.send(msg)
}

// finish sends the answer and ends the reply. A nil answer (the client
// cancelled the request) ends the stream without one. status is the HTTP
// status of an answer sent as plain JSON; once a stream has begun, the
// status was 200.
func (p *postReply) finish(resp *jsonrpc.Response, status int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stream == nil && resp != nil {
		// Nothing came before the answer: plain JSON.
		writeJSON(p.w, status, resp)
		p.stream = &sseStream{done: true} // a late message has nowhere to go
		return
	}
	if p.stream == nil {
		p.stream = newSSEStream(p.w)
	}
	if p.resume != nil {
		if resp != nil {
			p.resume.send(resp)
		}
		p.resume.end()
	} else if resp != nil {
		p.stream.send(resp)
	}
	p.stream.start()
	p.stream.close()
}
