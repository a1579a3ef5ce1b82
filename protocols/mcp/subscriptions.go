package mcp

import (
	"context"
	"encoding/json"
	"slices"

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
// change, so of the four kinds of notification it honors one:
// resourceSubscriptions. The hostile server (hostile.go) has no
// resources, and one list that changes: it honors toolsListChanged.

// MetaSubscriptionID tags every message of a subscriptions/listen stream.
const MetaSubscriptionID = "io.modelcontextprotocol/subscriptionId"

// SubscriptionFilter says which notifications a listen stream carries.
type SubscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
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
	send  func(any) error // writes to its stream
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
	l := &listener{id: x.id, send: x.send}
	for _, uri := range p.Notifications.ResourceSubscriptions {
		if _, ok := ss.srv.find(uri); ok && !slices.Contains(l.uris, uri) {
			l.uris = append(l.uris, uri)
		}
	}
	// Only a server whose tool list changes (the hostile one's does) has
	// tools/list_changed to tell.
	l.tools = p.Notifications.ToolsListChanged && ss.srv.toolsChange
	// The acknowledgment names what will come: only what was asked for
	// and this server can tell.
	x.notify("notifications/subscriptions/acknowledged", struct {
		Meta          json.RawMessage    `json:"_meta"`
		Notifications SubscriptionFilter `json:"notifications"`
	}{l.tag(), SubscriptionFilter{ToolsListChanged: l.tools, ResourceSubscriptions: l.uris}})

	ss.srv.mu.Lock()
	ss.srv.listeners[l] = struct{}{}
	ss.srv.mu.Unlock()
	defer func() {
		ss.srv.mu.Lock()
		delete(ss.srv.listeners, l)
		ss.srv.mu.Unlock()
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-ss.inputDone:
		return &ListenResult{ResultFields{Meta: l.tag()}}, nil
	}
}

// updated tells every listen stream that hears about uri that it changed.
func (s *Server) updated(uri string) {
	s.mu.Lock()
	var hearing []*listener
	for l := range s.listeners {
		if slices.Contains(l.uris, uri) {
			hearing = append(hearing, l)
		}
	}
	s.mu.Unlock()
	for _, l := range hearing {
		params, _ := json.Marshal(struct {
			Meta json.RawMessage `json:"_meta"`
			URI  string          `json:"uri"`
		}{l.tag(), uri})
		l.send(&jsonrpc.Request{Method: "notifications/resources/updated", Params: params})
	}
}
