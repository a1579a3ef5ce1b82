package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// In revision 2026-07-28 a client that wants to hear about changes asks
// with a request that stays open: subscriptions/listen, naming what it
// wants to hear. The answer is a stream of notifications, each tagged
// with the listen request's id, the first of which says what the server
// agreed to:
//
//	-> {"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["wirelab://deploys"]},"_meta":{...}}}
//	<- {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"resourceSubscriptions":["wirelab://deploys"]}}}
//	<- {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"uri":"wirelab://deploys"}}
//
// It replaces a 2025-11-25 session's resources/subscribe and its GET
// stream. The client ends it by closing the stream (HTTP) or with
// notifications/cancelled (stdio). The teaching server's lists never
// change, so of the four kinds of notification the core revision
// defines it honors one: resourceSubscriptions. The hostile server
// (hostile.go) has no resources, and one list that changes: it honors
// toolsListChanged.
//
// The tasks extension (tasks.go) adds a fifth, taskIds: a client that
// would rather hear than poll names its tasks, and each change of one
// arrives as notifications/tasks carrying the whole task, what tasks/get
// would answer at that moment:
//
//	-> {"jsonrpc":"2.0","id":8,"method":"subscriptions/listen","params":{"notifications":{"taskIds":["Q3R..."]},"_meta":{...}}}
//	<- {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{...:8},"notifications":{"taskIds":["Q3R..."]}}}
//	<- {"jsonrpc":"2.0","method":"notifications/tasks","params":{"_meta":{...:8},"taskId":"Q3R...","status":"working","statusMessage":"deploy_service: build image (1/4)",...}}
//
// Only the caller's own tasks are agreed to, as tasks/get answers only
// them; an id that is not one is left out of the acknowledgment, like a
// resource that does not exist. The first notification of each task is
// its state when the stream opened, so that a task that changed between
// the client's last tasks/get and its listen, or finished before it, is
// not missed. Notifications are the latest state, not every state: a
// stream that is read slowly gets fewer, never stale ones, and holds up
// nobody else.

// MetaSubscriptionID tags every message of a subscriptions/listen stream.
const MetaSubscriptionID = "io.modelcontextprotocol/subscriptionId"

// SubscriptionFilter says which notifications a listen stream carries.
type SubscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	// TaskIDs is the tasks extension's: the tasks to hear about.
	TaskIDs []string `json:"taskIds,omitempty"`
}

// ListenResult ends a listen stream that the server closed: it carries
// only the stream's id, in _meta.
type ListenResult struct {
	ResultFields
}

// listener is one open listen stream.
type listener struct {
	id    jsonrpc.ID
	uris  []string        // the resources it hears about
	tools bool            // it hears notifications/tools/list_changed (hostile.go)
	tasks []string        // the tasks it hears about (tasks.go)
	send  func(any) error // writes to its stream

	// Task changes wait in pending, the latest state of each task, until
	// the listen request's own goroutine sends them: the task store
	// never waits for a client's stream.
	mu      sync.Mutex
	pending map[string]Task
	changed chan struct{} // buffered, 1: pending has something
}

// tell keeps a task's new state for the stream, replacing one not yet
// sent.
func (l *listener) tell(v Task) {
	l.mu.Lock()
	l.pending[v.TaskID] = v
	l.mu.Unlock()
	select {
	case l.changed <- struct{}{}:
	default: // already signalled
	}
}

// sendTasks sends what tell kept, in the order of the tasks' ids.
func (l *listener) sendTasks() {
	l.mu.Lock()
	pending := l.pending
	l.pending = make(map[string]Task)
	l.mu.Unlock()
	for _, id := range slices.Sorted(maps.Keys(pending)) {
		params, _ := json.Marshal(struct {
			Meta json.RawMessage `json:"_meta"`
			Task
		}{l.tag(), pending[id]})
		l.send(&jsonrpc.Request{Method: "notifications/tasks", Params: params})
	}
}

// tag is the _meta that every message of the stream carries.
func (l *listener) tag() json.RawMessage {
	b, _ := json.Marshal(map[string]json.RawMessage{MetaSubscriptionID: json.RawMessage(l.id.String())})
	return b
}

// listen serves subscriptions/listen: it acknowledges, then stays open,
// and the server's changes reach it (Server.toolRan), until the client
// cancels or leaves, or the client's input ends (stdio), when it closes
// the stream with a result.
func (ss *session) listen(ctx context.Context, x *exchange, raw json.RawMessage) (any, error) {
	var p struct {
		Notifications *SubscriptionFilter `json:"notifications"`
	}
	if err := decodeParams("subscriptions/listen", raw, &p); err != nil {
		return nil, err
	}
	if p.Notifications == nil {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
			`invalid params: subscriptions/listen needs "notifications", which says what to hear about, such as {"resourceSubscriptions":["wirelab://deploys"]}`)
	}
	l := &listener{id: x.id, send: x.send, pending: make(map[string]Task), changed: make(chan struct{}, 1)}
	for _, uri := range p.Notifications.ResourceSubscriptions {
		if _, ok := ss.srv.find(uri); ok && !slices.Contains(l.uris, uri) {
			l.uris = append(l.uris, uri)
		}
	}
	// Only a server whose tool list changes (the hostile one's does) has
	// tools/list_changed to tell.
	l.tools = p.Notifications.ToolsListChanged && ss.srv.toolsChange
	if len(p.Notifications.TaskIDs) > 0 {
		// "If a client requests task status notifications but does not
		// declare the io.modelcontextprotocol/tasks extension
		// capability, the server MUST return a JSON-RPC error."
		if x.modern.client.Extensions[ExtensionTasks] == nil {
			return nil, missingTasksExtension("notifications/tasks belong to the tasks extension")
		}
		l.tasks = ss.srv.tasks.owned(x.who.id, p.Notifications.TaskIDs)
	}
	// The acknowledgment names what will come: only what was asked for
	// and this server can tell.
	x.notify("notifications/subscriptions/acknowledged", struct {
		Meta          json.RawMessage    `json:"_meta"`
		Notifications SubscriptionFilter `json:"notifications"`
	}{l.tag(), SubscriptionFilter{ToolsListChanged: l.tools, ResourceSubscriptions: l.uris, TaskIDs: l.tasks}})

	ss.srv.mu.Lock()
	ss.srv.listeners[l] = struct{}{}
	ss.srv.mu.Unlock()
	defer func() {
		ss.srv.mu.Lock()
		delete(ss.srv.listeners, l)
		ss.srv.mu.Unlock()
	}()
	ss.srv.tasks.tellNow(l)
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-ss.inputDone:
			return &ListenResult{ResultFields{Meta: l.tag()}}, nil
		case <-l.changed:
			l.sendTasks()
		}
	}
}

// hearing returns the open listen streams that hear what about says.
// They are sent to after the lock is let go: a stream's send may wait on
// its client.
func (s *Server) hearing(about func(*listener) bool) []*listener {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ls []*listener
	for l := range s.listeners {
		if about(l) {
			ls = append(ls, l)
		}
	}
	return ls
}

// updated tells every listen stream that hears about uri that it changed.
func (s *Server) updated(uri string) {
	for _, l := range s.hearing(func(l *listener) bool { return slices.Contains(l.uris, uri) }) {
		params, _ := json.Marshal(struct {
			Meta json.RawMessage `json:"_meta"`
			URI  string          `json:"uri"`
		}{l.tag(), uri})
		l.send(&jsonrpc.Request{Method: "notifications/resources/updated", Params: params})
	}
}

// taskChanged tells every listen stream that hears about a task its new
// state, which view makes only if one does. The task store calls it
// under its lock, so the states reach each stream in the order they
// came about.
func (s *Server) taskChanged(id string, view func() Task) {
	hearing := s.hearing(func(l *listener) bool { return slices.Contains(l.tasks, id) })
	if len(hearing) == 0 {
		return
	}
	v := view()
	for _, l := range hearing {
		l.tell(v)
	}
}
