package a2a

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// serveStream answers SendStreamingMessage and SubscribeToTask (0.3:
// message/stream and tasks/resubscribe) with Server-Sent Events. Every
// event is a whole JSON-RPC response to the one request, with the same
// id; its result is one stream event:
//
//	data: {"jsonrpc":"2.0","id":1,"result":{"task":{...}}}
//
//	data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{...}}}
//
// The first event is the task as it stands; the stream ends after the
// event that makes the task terminal or interrupted (0.3 marks that one
// "final": true). An error, even before the first event, is sent as an
// event too, since the caller is reading a stream.
func (s *Server) serveStream(w http.ResponseWriter, c *call) {
	out := &sseWriter{w: w}
	var (
		t   Task
		st  *stream
		err *rpcError
	)
	switch c.method {
	case methodStream:
		var req SendMessageRequest
		if req, err = decodeSend(c); err == nil {
			t, st, err = s.send(req, c.allow, true)
			t = withHistory(t, historyLength(req.Configuration))
		}
	case methodSubscribe:
		var req TaskIDRequest
		if err = decodeParams(c.params, &req); err == nil {
			if err = requireID(req.ID); err == nil {
				t, st, err = s.subscribe(req.ID)
			}
		}
	}
	if err != nil {
		out.send(errorResponse(c.id, err, c.version))
		return
	}
	if out.result(c.id, eventResult(c.version, StreamResponse{Task: &t})) != nil {
		s.store.unsubscribe(t.ID, st)
		return
	}
	for {
		select {
		case ev, ok := <-st.events:
			if !ok {
				return // the task is terminal or interrupted, or this stream fell behind
			}
			if out.result(c.id, eventResult(c.version, ev)) != nil {
				s.store.unsubscribe(t.ID, st)
				return
			}
		case <-c.ctx.Done():
			s.store.unsubscribe(t.ID, st)
			return
		case <-s.ctx.Done():
			s.store.unsubscribe(t.ID, st)
			return
		}
	}
}

// subscribe is SubscribeToTask: a stream of a task that is not finished.
func (s *Server) subscribe(id string) (Task, *stream, *rpcError) {
	t, st, err := s.store.subscribe(id)
	switch {
	case errors.Is(err, errTaskNotFound):
		return Task{}, nil, taskNotFound(id)
	case errors.Is(err, errTaskFinished):
		return Task{}, nil, s.refuseFinished(CodeUnsupportedOperation, id,
			"unsupported operation: task %q is %s, which is final, so no events will come; read it with GetTask (0.3: tasks/get)")
	}
	return t, st, nil
}

// sseWriter writes one JSON-RPC response per event, and flushes each at
// once so that the caller sees it while the task is still running.
type sseWriter struct {
	w       http.ResponseWriter
	started bool
}

func (o *sseWriter) result(id jsonrpc.ID, result any) error {
	resp, err := jsonrpc.NewResponse(id, result)
	if err != nil {
		return err
	}
	return o.send(resp)
}

func (o *sseWriter) send(resp *jsonrpc.Response) error {
	if !o.started {
		o.started = true
		h := o.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache") // and proxies must not hold events back
		o.w.WriteHeader(http.StatusOK)
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	// encoding/json escapes no newline into its output, so one data
	// line holds the whole message.
	if _, err := o.w.Write(append(append([]byte("data: "), b...), '\n', '\n')); err != nil {
		return err
	}
	return http.NewResponseController(o.w).Flush()
}
