package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// CodeResourceNotFound is MCP's JSON-RPC error for resources/read of a URI
// the server does not have.
const CodeResourceNotFound = -32002

// deployLogURI names the deploy log, the one resource that changes: each
// successful deploy_service call adds a line, and subscribers hear of it.
const deployLogURI = "wirelab://deploys"

// resource is a resource and the code that reads it.
type resource struct {
	Resource
	read func() ResourceContents
}

// resourceTemplate is a template and the code that reads the resources it
// names. read returns false for a URI that fits the template but names
// nothing; complete offers values for one of its variables.
type resourceTemplate struct {
	ResourceTemplate
	read     func(vars map[string]string) (ResourceContents, bool)
	complete func(variable, prefix string) []string
}

// courseResources are the search tool's notes, one resource each and a
// template for all of them, and the deploy log.
func (s *Server) courseResources() ([]resource, []resourceTemplate) {
	notes := tools.Notes()
	var rs []resource
	for _, n := range notes {
		rs = append(rs, resource{
			Resource: Resource{URI: "wirelab://notes/" + n.ID, Name: n.ID, Title: n.Title, MimeType: "text/markdown"},
			read: func() ResourceContents {
				return ResourceContents{MimeType: "text/markdown", Text: "# " + n.Title + "\n\n" + n.Body + "\n"}
			},
		})
	}
	rs = append(rs, resource{
		Resource: Resource{URI: deployLogURI, Name: "deploys", Title: "Deploy log",
			Description: "One line per deploy_service call that succeeded. Subscribe to hear when it grows.", MimeType: "text/plain"},
		read: func() ResourceContents {
			s.mu.Lock()
			defer s.mu.Unlock()
			if len(s.deploys) == 0 {
				return ResourceContents{MimeType: "text/plain", Text: "no deploys yet\n"}
			}
			return ResourceContents{MimeType: "text/plain", Text: strings.Join(s.deploys, "\n") + "\n"}
		},
	})
	ids := make([]string, len(notes))
	for i, n := range notes {
		ids[i] = n.ID
	}
	notesTemplate := resourceTemplate{
		ResourceTemplate: ResourceTemplate{URITemplate: "wirelab://notes/{id}", Name: "note", Title: "A note by id",
			Description: "The note the search tool returns as a hit with this id.", MimeType: "text/markdown"},
		read: func(vars map[string]string) (ResourceContents, bool) {
			i := slices.Index(ids, vars["id"])
			if i < 0 {
				return ResourceContents{}, false
			}
			return rs[i].read(), true
		},
		complete: func(variable, prefix string) []string { return withPrefix(ids, prefix) },
	}
	return rs, []resourceTemplate{notesTemplate}
}

// withPrefix returns the values that start with prefix.
func withPrefix(values []string, prefix string) []string {
	out := []string{}
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return out
}

func (ss *session) listResources(raw json.RawMessage) (*ListResourcesResult, error) {
	all := make([]Resource, len(ss.srv.resources))
	for i, r := range ss.srv.resources {
		all[i] = r.Resource
	}
	list, next, err := listPage("resources/list", raw, all, ss.srv.pageSize)
	if err != nil {
		return nil, err
	}
	return &ListResourcesResult{Resources: list, NextCursor: next}, nil
}

func (ss *session) listTemplates(raw json.RawMessage) (*ListResourceTemplatesResult, error) {
	all := make([]ResourceTemplate, len(ss.srv.templates))
	for i, t := range ss.srv.templates {
		all[i] = t.ResourceTemplate
	}
	list, next, err := listPage("resources/templates/list", raw, all, ss.srv.pageSize)
	if err != nil {
		return nil, err
	}
	return &ListResourceTemplatesResult{ResourceTemplates: list, NextCursor: next}, nil
}

func (ss *session) readResource(raw json.RawMessage) (*ReadResourceResult, error) {
	var p ResourceParams
	if err := decodeParams("resources/read", raw, &p); err != nil {
		return nil, err
	}
	if err := requireURI("resources/read", p.URI); err != nil {
		return nil, err
	}
	c, ok := ss.srv.find(p.URI)
	if !ok {
		return nil, notFound(p.URI)
	}
	c.URI = p.URI
	return &ReadResourceResult{Contents: []ResourceContents{c}}, nil
}

// find reads the resource a URI names: a listed resource, or one that a
// template names.
func (s *Server) find(uri string) (ResourceContents, bool) {
	for _, r := range s.resources {
		if r.URI == uri {
			return r.read(), true
		}
	}
	for _, t := range s.templates {
		if vars, ok := matchTemplate(t.URITemplate, uri); ok {
			if c, ok := t.read(vars); ok {
				return c, true
			}
		}
	}
	return ResourceContents{}, false
}

// requireURI refuses params without a uri. Without one there is nothing
// to look for, so the answer is not "resource not found" (-32002) but
// what it is in both eras, an invalid param: "uri" is required by the
// schema of resources/read, resources/subscribe and resources/unsubscribe.
func requireURI(method, uri string) error {
	if uri == "" {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
			"invalid params: %s: uri is required: the URI of a resource, as resources/list or a template gives it", method)
	}
	return nil
}

// notFound is the error for an unknown URI. The spec gives it its own
// code, and the URI goes in data.
func notFound(uri string) *jsonrpc.Error {
	e := jsonrpc.Errorf(CodeResourceNotFound, "resource not found: %q; resources/list and resources/templates/list say what there is", uri)
	return e.WithData(map[string]string{"uri": uri})
}

// subscribe starts (on) or stops watching a resource for changes.
func (ss *session) subscribe(raw json.RawMessage, on bool) (any, error) {
	method := "resources/unsubscribe"
	if on {
		method = "resources/subscribe"
	}
	var p ResourceParams
	if err := decodeParams(method, raw, &p); err != nil {
		return nil, err
	}
	if err := requireURI(method, p.URI); err != nil {
		return nil, err
	}
	if _, ok := ss.srv.find(p.URI); !ok && on {
		return nil, notFound(p.URI)
	}
	ss.mu.Lock()
	if on {
		ss.subscribed[p.URI] = true
	} else {
		delete(ss.subscribed, p.URI)
	}
	ss.mu.Unlock()
	return struct{}{}, nil
}

// toolRan records what a successful call changed. A deploy adds a line to
// the deploy log, and every session subscribed to the log is told: the
// calling session on the call's own stream, the others on their streams
// for messages that belong to no request; and so is every 2026-07-28
// listen stream that asked (subscriptions.go).
func (s *Server) toolRan(x *exchange, name string, out json.RawMessage) {
	if name != "deploy_service" {
		return
	}
	var d struct{ Service, Env, URL string }
	if json.Unmarshal(out, &d) != nil {
		return
	}
	s.mu.Lock()
	s.deploys = append(s.deploys, fmt.Sprintf("%s deployed to %s at %s", d.Service, d.Env, d.URL))
	var watching []*session
	for ss := range s.sessions {
		ss.mu.Lock()
		if ss.subscribed[deployLogURI] {
			watching = append(watching, ss)
		}
		ss.mu.Unlock()
	}
	s.mu.Unlock()
	for _, ss := range watching {
		send := ss.out
		if ss == x.ss {
			send = x.send
		}
		(&exchange{ss: ss, send: send}).notify("notifications/resources/updated", ResourceParams{URI: deployLogURI})
	}
	s.updated(deployLogURI)
}

// matchTemplate matches a URI against a URI template whose variables are
// simple ("{name}", RFC 6570 level 1) and reports each variable's value. A
// value is never empty and never holds a "/".
func matchTemplate(tmpl, uri string) (map[string]string, bool) {
	vars := map[string]string{}
	for tmpl != "" {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			return vars, tmpl == uri
		}
		if !strings.HasPrefix(uri, tmpl[:open]) {
			return nil, false
		}
		uri = uri[open:]
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			return nil, false
		}
		name := tmpl[open+1 : open+end]
		tmpl = tmpl[open+end+1:]
		// The value runs to the next literal text of the template.
		next := tmpl
		if i := strings.IndexByte(next, '{'); i >= 0 {
			next = next[:i]
		}
		stop := len(uri)
		if next != "" {
			stop = strings.Index(uri, next)
		}
		if stop <= 0 || strings.Contains(uri[:stop], "/") {
			return nil, false
		}
		vars[name], uri = uri[:stop], uri[stop:]
	}
	return vars, uri == ""
}
