package a2a

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// What the agent reads and writes: the media types of its card's
// defaultInputModes and defaultOutputModes.
var (
	inputModes  = []string{"text/plain", "application/json"}
	outputModes = []string{"text/plain", "application/json"}
)

// ListTasks page sizes.
const (
	defaultPageSize = 50
	maxPageSize     = 100
)

// running is the agent at work on a task, and how to stop it.
type running struct {
	cancel context.CancelFunc
}

// send takes a message: a new task if it names none, or the caller's
// answer to a task that waits for one. It returns the task as it stands
// once the message is in, then sets the agent to work. With follow, it
// also returns a stream of every event after that, which the caller
// must read to its end or unsubscribe.
func (s *Server) send(req SendMessageRequest, allow func(tools.Scope) bool, follow bool) (Task, *stream, *rpcError) {
	m := req.Message
	var id string
	if m.TaskID == "" {
		id = s.newID()
		if m.ContextID == "" {
			// A new conversation. The caller keeps the contextId to
			// send more tasks in the same one.
			m.ContextID = s.newID()
		}
		m.TaskID = id
		now := s.agent.now().UTC()
		t := Task{ID: id, ContextID: m.ContextID, Status: TaskStatus{State: StateSubmitted, Timestamp: &now}, History: []Message{m}}
		if err := s.store.create(t); err != nil {
			// Only a store full of tasks the agent is working on refuses
			// (store.go): the finished and the waiting ones make room.
			// A2A has no error for "not now", and -32603 would say the
			// agent is broken, which it is not. UnsupportedOperationError
			// covers "a specific aspect" of a request the agent does not
			// support, here one task more than it keeps; the metadata
			// says which limit it met.
			return Task{}, nil, errorf(CodeUnsupportedOperation,
				"unsupported operation: the agent is working on %d tasks, the most it keeps at once; send the message again when some have finished", MaxTasks).
				with("limit", "maxTasks").with("maxTasks", strconv.Itoa(MaxTasks))
		}
	} else {
		id = m.TaskID
		var refused *rpcError
		err := s.store.update(id, func(t *Task) []StreamResponse {
			switch {
			case !t.Status.State.Interrupted():
				refused = errorf(CodeUnsupportedOperation, "unsupported operation: task %q is %s and is not waiting for an answer; send a message to it only when it is input-required or auth-required", id, t.Status.State).
					with("taskId", id).with("state", string(t.Status.State))
				return nil
			case m.ContextID != "" && m.ContextID != t.ContextID:
				refused = errorf(jsonrpc.CodeInvalidParams, "invalid params: task %q belongs to context %q, but the message says %q", id, t.ContextID, m.ContextID)
				return nil
			}
			m.ContextID = t.ContextID
			t.History = append(t.History, m)
			now := s.agent.now().UTC()
			t.Status = TaskStatus{State: StateWorking, Timestamp: &now}
			return []StreamResponse{{StatusUpdate: &TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status}}}
		})
		switch {
		case errors.Is(err, errTaskNotFound):
			return Task{}, nil, taskNotFound(id)
		case errors.Is(err, errTaskFinished):
			return Task{}, nil, s.refuseFinished(CodeUnsupportedOperation, id,
				"unsupported operation: task %q is %s, which is final; start a new task (with the same contextId to stay in the conversation)")
		case refused != nil:
			return Task{}, nil, refused
		}
	}
	var t Task
	var st *stream
	var err error
	if follow {
		t, st, err = s.store.subscribe(id)
	} else {
		t, err = s.store.get(id)
	}
	switch {
	case errors.Is(err, errTaskFinished):
		// Canceled between the message going in and the stream starting.
		return Task{}, nil, errorf(CodeUnsupportedOperation, "unsupported operation: task %q was canceled as the message arrived", id).with("taskId", id)
	case err != nil:
		return Task{}, nil, taskNotFound(id) // not expected: a submitted or working task is never evicted
	}
	s.start(id, allow)
	return t, st, nil
}

// sendAndWait is SendMessage: the task once it is done or waits for the
// caller, or at once if the caller asked for returnImmediately.
func (s *Server) sendAndWait(ctx context.Context, req SendMessageRequest, allow func(tools.Scope) bool) (Task, *rpcError) {
	wait := req.Configuration == nil || !req.Configuration.ReturnImmediately
	t, st, err := s.send(req, allow, wait)
	if err != nil || !wait {
		return t, err
	}
	for {
		select {
		case _, ok := <-st.events:
			if !ok {
				if t, gerr := s.store.get(t.ID); gerr == nil {
					return t, nil
				}
				return Task{}, taskNotFound(t.ID)
			}
		case <-ctx.Done():
			s.store.unsubscribe(t.ID, st)
			return Task{}, errorf(jsonrpc.CodeInternalError, "the caller went away") // nobody reads this
		case <-s.ctx.Done():
			s.store.unsubscribe(t.ID, st)
			t, _ := s.store.get(t.ID)
			return t, nil
		}
	}
}

// start sets the agent to work on a task, in the background: the task
// goes on if the caller goes away, and a later GetTask sees the result.
func (s *Server) start(id string, allow func(tools.Scope) bool) {
	ctx, cancel := context.WithCancel(s.ctx)
	run := &running{cancel: cancel}
	s.mu.Lock()
	if s.ctx.Err() != nil {
		s.mu.Unlock()
		cancel()
		return // closed: Close is waiting, so start no more
	}
	s.running[id] = run
	s.wg.Add(1)
	s.mu.Unlock()
	// Stops when the agent has taken the task as far as it can go
	// without the caller, or when the task is canceled, or at Close.
	go func() {
		defer s.wg.Done()
		s.agent.run(ctx, s.store, id, allow)
		s.mu.Lock()
		if s.running[id] == run { // a later answer may have started another
			delete(s.running, id)
		}
		s.mu.Unlock()
		cancel()
	}()
}

// cancel is CancelTask: the task becomes canceled, and the agent working
// on it, if any, is stopped. A finished task cannot be canceled.
func (s *Server) cancel(id string) (Task, *rpcError) {
	err := s.store.update(id, func(t *Task) []StreamResponse {
		now := s.agent.now().UTC()
		t.Status = TaskStatus{State: StateCanceled, Timestamp: &now}
		return []StreamResponse{{StatusUpdate: &TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status}}}
	})
	switch {
	case errors.Is(err, errTaskNotFound):
		return Task{}, taskNotFound(id)
	case errors.Is(err, errTaskFinished):
		return Task{}, s.refuseFinished(CodeTaskNotCancelable, id, "task not cancelable: task %q is already %s, which is final")
	}
	s.mu.Lock()
	if run := s.running[id]; run != nil {
		run.cancel()
	}
	s.mu.Unlock()
	t, gerr := s.store.get(id)
	if gerr != nil {
		return Task{}, taskNotFound(id)
	}
	return t, nil
}

// refuseFinished is the error for a change to a finished task. format
// takes the task's id and its state.
func (s *Server) refuseFinished(code int64, id, format string) *rpcError {
	t, _ := s.store.get(id)
	return errorf(code, format, id, t.Status.State).with("taskId", id).with("state", string(t.Status.State))
}

// listTasks is ListTasks (1.0 only): the tasks that match, most recently
// changed first, a page at a time. The page token is opaque to the
// caller; here it is the offset of the next page.
func (s *Server) listTasks(req ListTasksRequest) (ListTasksResponse, *rpcError) {
	size := defaultPageSize
	if req.PageSize != nil {
		size = *req.PageSize
	}
	if size < 1 || size > maxPageSize {
		return ListTasksResponse{}, errorf(jsonrpc.CodeInvalidParams, "invalid params: pageSize must be between 1 and %d; got %d", maxPageSize, size)
	}
	if req.Status != "" && !validState(req.Status) {
		return ListTasksResponse{}, errorf(jsonrpc.CodeInvalidParams, "invalid params: status %q is not a task state (TASK_STATE_WORKING, TASK_STATE_COMPLETED, ...)", req.Status)
	}
	offset := 0
	if req.PageToken != "" {
		b, err := base64.RawURLEncoding.DecodeString(req.PageToken)
		n, aerr := strconv.Atoi(strings.TrimPrefix(string(b), "offset:"))
		if err != nil || aerr != nil || !strings.HasPrefix(string(b), "offset:") || n < 0 {
			return ListTasksResponse{}, errorf(jsonrpc.CodeInvalidParams, "invalid params: pageToken %q is not one this agent gave out; leave it out for the first page", req.PageToken)
		}
		offset = n
	}
	all := s.store.list(func(t Task) bool {
		return (req.ContextID == "" || t.ContextID == req.ContextID) && (req.Status == "" || t.Status.State == req.Status)
	})
	out := ListTasksResponse{Tasks: []Task{}, PageSize: size, TotalSize: len(all)}
	for i := offset; i < len(all) && i < offset+size; i++ {
		t := withHistory(all[i], req.HistoryLength)
		if req.IncludeArtifacts == nil || !*req.IncludeArtifacts {
			t.Artifacts = nil
		}
		out.Tasks = append(out.Tasks, t)
	}
	if offset+size < len(all) {
		out.NextPageToken = base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "offset:%d", offset+size))
	}
	return out, nil
}

func validState(s TaskState) bool {
	switch s {
	case StateSubmitted, StateWorking, StateInputRequired, StateAuthRequired,
		StateCompleted, StateFailed, StateCanceled, StateRejected:
		return true
	}
	return false
}

// withHistory keeps the last n messages of a task's history: all when n
// is nil, none when it is 0.
func withHistory(t Task, n *int) Task {
	if n != nil && *n >= 0 && *n < len(t.History) {
		t.History = t.History[len(t.History)-*n:]
	}
	if len(t.History) == 0 {
		t.History = nil
	}
	return t
}

func historyLength(c *SendMessageConfiguration) *int {
	if c == nil {
		return nil
	}
	return c.HistoryLength
}

// checkMessage refuses a message the agent cannot take, saying what to
// fix. params are the request's params as sent, to name what a part
// holds when it holds none of the four kinds of content.
func checkMessage(m Message, params json.RawMessage) *rpcError {
	switch {
	case m.MessageID == "" && m.Role == "" && m.Parts == nil && m.ContextID == "" && m.TaskID == "":
		// Absent, null and {} all decode to the zero Message.
		return errorf(jsonrpc.CodeInvalidParams, `invalid params: "message" is missing or empty: send {"message": {"messageId": "...", "role": "ROLE_USER", "parts": [{"text": "count the words"}]}}`)
	case m.MessageID == "":
		return errorf(jsonrpc.CodeInvalidParams, `invalid params: the message needs a "messageId", which the caller makes up (a UUID will do)`)
	case m.Role == "user":
		return errorf(jsonrpc.CodeInvalidParams, `invalid params: role "user" is the 0.3 spelling; 1.0 says "ROLE_USER"`)
	case m.Role != RoleUser:
		return errorf(jsonrpc.CodeInvalidParams, `invalid params: a caller's message has role %q; got %q`, RoleUser, m.Role)
	case len(m.Parts) == 0:
		return errorf(jsonrpc.CodeInvalidParams, `invalid params: the message has no parts; send at least one, such as {"text": "count the words"}`)
	}
	for i, p := range m.Parts {
		var set []string
		for name, ok := range map[string]bool{"text": p.Text != nil, "raw": p.Raw != nil, "url": p.URL != nil, "data": p.Data != nil} {
			if ok {
				set = append(set, name)
			}
		}
		switch {
		case len(set) == 0:
			return errorf(jsonrpc.CodeInvalidParams, `invalid params: part %d holds nothing%s; a part sets exactly one of "text", "raw", "url" and "data"`, i, unknownPartKeys(params, i))
		case len(set) > 1:
			return errorf(jsonrpc.CodeInvalidParams, `invalid params: part %d sets %d of "text", "raw", "url" and "data"; a part holds exactly one`, i, len(set))
		}
		if (p.Raw != nil || p.URL != nil) && !readable(p.MediaType) {
			return errorf(CodeContentTypeNotSupported, "content type not supported: part %d is %s; this agent reads %s", i,
				quote(p.MediaType), strings.Join(inputModes, " and ")).with("mediaType", p.MediaType)
		}
	}
	return nil
}

// unknownPartKeys names the keys of part i of params.message.parts that a
// 1.0 Part does not have ({"video": "x"}), as a clause for an error
// message, or "" if there are none.
func unknownPartKeys(params json.RawMessage, i int) string {
	var p struct {
		Message struct {
			Parts []map[string]json.RawMessage `json:"parts"`
		} `json:"message"`
	}
	if json.Unmarshal(params, &p) != nil || i >= len(p.Message.Parts) {
		return ""
	}
	var unknown []string
	for key := range p.Message.Parts[i] {
		switch key {
		case "text", "raw", "url", "data", "mediaType", "filename", "metadata":
		default:
			unknown = append(unknown, strconv.Quote(key))
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	slices.Sort(unknown)
	return fmt.Sprintf(" (%s is not a member of a part)", strings.Join(unknown, ", "))
}

func readable(mediaType string) bool {
	return strings.HasPrefix(mediaType, "text/") || mediaType == "application/json"
}

// checkOutputModes refuses a request that accepts none of what the agent
// writes.
func checkOutputModes(c *SendMessageConfiguration) *rpcError {
	if c == nil || len(c.AcceptedOutputModes) == 0 {
		return nil
	}
	for _, accepted := range c.AcceptedOutputModes {
		for _, mode := range outputModes {
			major, _, _ := strings.Cut(mode, "/")
			if accepted == mode || accepted == "*/*" || accepted == major+"/*" {
				return nil
			}
		}
	}
	return errorf(CodeContentTypeNotSupported, "content type not supported: the caller accepts only %s, and this agent writes %s",
		strings.Join(c.AcceptedOutputModes, ", "), strings.Join(outputModes, " and "))
}
