package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// Over HTTP the modern era is one POST per request, with no session id.
// The body says everything, and some of it is said twice, in headers, so
// that a gateway can route a request without parsing JSON:
//
//	POST /mcp HTTP/1.1
//	MCP-Protocol-Version: 2026-07-28     = params._meta["io.modelcontextprotocol/protocolVersion"]
//	Mcp-Method: tools/call               = method
//	Mcp-Name: word_count                 = params.name (tools/call, prompts/get), params.uri (resources/read) or params.taskId (tasks/*)
//
// Since a gateway acts on the headers and the server on the body, the two
// must agree: a header that is missing or says something else is refused
// with 400 and -32020 (HeaderMismatch), before anything runs.

// postModern answers a modern request sent by POST.
func (h *HTTPHandler) postModern(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request, who caller) {
	refuse := func(err *jsonrpc.Error) {
		resp := jsonrpc.NewErrorResponse(req.ID, err)
		writeJSON(w, modernStatus(resp), resp)
	}
	// A revision in the header that differs from the body's is a
	// mismatch, even if neither is one this server speaks: a gateway may
	// have routed on it. Then the body: a request without its _meta is
	// malformed whatever its headers say. Then the other headers.
	if err := versionHeader(r.Header, req); err != nil {
		refuse(err)
		return
	}
	if _, _, err := readModernCall(req); err != nil {
		refuse(err.(*jsonrpc.Error))
		return
	}
	if err := h.srv.checkHeaders(r.Header, req); err != nil {
		refuse(err)
		return
	}
	if scope, ok := h.srv.allowed(req, who.allow); !ok {
		h.forbidden(w, r, req, scope)
		return
	}
	// The request ends when its client disconnects: in this era closing
	// the stream is how a client cancels.
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(h.ctx, cancel)
	defer stop()
	reply := &postReply{w: w}
	resp := h.modern.handleModern(ctx, req, reply.send, who)
	reply.finish(resp, modernStatus(resp))
}

// versionHeader refuses a request whose MCP-Protocol-Version header names
// another revision than its _meta does.
func versionHeader(hdr http.Header, req *jsonrpc.Request) *jsonrpc.Error {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	json.Unmarshal(req.Params, &p)
	var version string
	if v := hdr.Get("MCP-Protocol-Version"); v != "" && json.Unmarshal(p.Meta[MetaProtocolVersion], &version) == nil && version != v {
		return &jsonrpc.Error{Code: CodeHeaderMismatch,
			Message: fmt.Sprintf("header mismatch: MCP-Protocol-Version is %s but params._meta says %s", quote(v), quote(version))}
	}
	return nil
}

// checkHeaders holds the request's headers to its body.
func (s *Server) checkHeaders(hdr http.Header, req *jsonrpc.Request) *jsonrpc.Error {
	mismatch := func(format string, args ...any) *jsonrpc.Error {
		return &jsonrpc.Error{Code: CodeHeaderMismatch, Message: "header mismatch: " + fmt.Sprintf(format, args...)}
	}
	var p struct {
		Name      *string                    `json:"name"`
		URI       *string                    `json:"uri"`
		TaskID    *string                    `json:"taskId"`
		Arguments map[string]json.RawMessage `json:"arguments"`
		Meta      map[string]json.RawMessage `json:"_meta"`
	}
	json.Unmarshal(req.Params, &p)
	var version string
	json.Unmarshal(p.Meta[MetaProtocolVersion], &version)

	// A header that disagrees with the body was refused before the body
	// was read (versionHeader); here only its absence is left.
	if hdr.Get("MCP-Protocol-Version") == "" {
		return mismatch("no MCP-Protocol-Version header; send it with the revision in params._meta, %s", quote(version))
	}
	m := hdr.Get("Mcp-Method")
	switch {
	case m == "":
		return mismatch("no Mcp-Method header; send it with the request's method, %s", quote(req.Method))
	case m != req.Method:
		return mismatch("Mcp-Method is %s but the body's method is %s", quote(m), quote(req.Method))
	}
	var name *string
	switch req.Method {
	case "tools/call", "prompts/get":
		name = p.Name
	case "resources/read":
		name = p.URI
	case "tasks/get", "tasks/update", "tasks/cancel":
		// The tasks extension: Mcp-Name carries the task id, so that a
		// load balancer can send every request about a task to the
		// server that holds it.
		name = p.TaskID
	}
	if name != nil {
		got, ok, err := headerValue(hdr, "Mcp-Name")
		switch {
		case err != nil:
			return mismatch("Mcp-Name: %v", err)
		case !ok:
			return mismatch("no Mcp-Name header; %s needs it, with %s", req.Method, quote(*name))
		case got != *name:
			return mismatch("Mcp-Name is %s but the body names %s", quote(got), quote(*name))
		}
	}
	if req.Method == "tools/call" && p.Name != nil {
		return s.checkParamHeaders(hdr, *p.Name, p.Arguments, mismatch)
	}
	return nil
}

// checkParamHeaders holds the Mcp-Param-{Name} headers of a tools/call to
// its arguments: a tool's inputSchema may mark a top-level argument with
// "x-mcp-header": NAME, and then a call that has the argument carries it
// in the header Mcp-Param-NAME too.
func (s *Server) checkParamHeaders(hdr http.Header, tool string, args map[string]json.RawMessage, mismatch func(string, ...any) *jsonrpc.Error) *jsonrpc.Error {
	var schema struct {
		Properties map[string]struct {
			Header string `json:"x-mcp-header"`
		} `json:"properties"`
	}
	json.Unmarshal(s.inputSchema(tool), &schema)
	for arg, prop := range schema.Properties {
		if prop.Header == "" {
			continue
		}
		header := "Mcp-Param-" + prop.Header
		got, ok, err := headerValue(hdr, header)
		if err != nil {
			return mismatch("%s: %v", header, err)
		}
		raw, has := args[arg]
		if !has || string(raw) == "null" {
			if ok {
				return mismatch("%s is there but the call has no %s argument", header, quote(arg))
			}
			continue
		}
		if !ok {
			return mismatch("no %s header; the tool's inputSchema marks %s with x-mcp-header, so its value goes in that header too", header, quote(arg))
		}
		if !sameValue(got, raw) {
			return mismatch("%s is %s but arguments.%s is %s", header, quote(got), arg, compact(raw))
		}
	}
	return nil
}

// inputSchema returns a tool's input schema, or nil for no such tool.
func (s *Server) inputSchema(name string) json.RawMessage {
	for _, t := range s.extraTools {
		if t.Name == name {
			return t.InputSchema
		}
	}
	for _, d := range s.cat.List() {
		if d.Name == name {
			return d.InputSchema
		}
	}
	return nil
}

// headerValue reads a header that may carry the base64 form
// "=?base64?...?=", used for values a header cannot hold as they are
// (non-ASCII, control characters, spaces at either end).
func headerValue(hdr http.Header, name string) (string, bool, error) {
	vs := hdr.Values(name)
	if len(vs) == 0 {
		return "", false, nil
	}
	v := vs[0]
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c > 0x7e {
			return "", true, fmt.Errorf("byte 0x%02x is not allowed in a header; send such a value as =?base64?...?=", c)
		}
	}
	if enc, ok := strings.CutPrefix(v, "=?base64?"); ok && strings.HasSuffix(enc, "?=") {
		b, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(enc, "?="))
		if err != nil {
			return "", true, fmt.Errorf("%s is not valid base64", quote(v))
		}
		return string(b), true, nil
	}
	return v, true, nil
}

// sameValue reports whether a header's text says the same as an argument
// of JSON type string, integer or boolean. Numbers compare as numbers: 42
// and 42.0 are the same.
func sameValue(header string, raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v := v.(type) {
	case string:
		return header == v
	case bool:
		return header == strconv.FormatBool(v)
	case float64:
		f, err := strconv.ParseFloat(header, 64)
		return err == nil && f == v
	}
	return false
}
