package a2a

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// VersionHeader is the HTTP header in which a caller names the A2A
// revision it speaks. A request without it speaks 0.3, the revision
// before the header existed.
const VersionHeader = "A2A-Version"

// The 1.0 methods, by their 1.0 names. A 0.3 request is read as one of
// these (fromV03Method), so that one switch serves both revisions.
const (
	methodSend          = "SendMessage"
	methodStream        = "SendStreamingMessage"
	methodGetTask       = "GetTask"
	methodListTasks     = "ListTasks"
	methodCancelTask    = "CancelTask"
	methodSubscribe     = "SubscribeToTask"
	methodExtendedCard  = "GetExtendedAgentCard"
	methodPushConfigSet = "CreateTaskPushNotificationConfig"
)

var methods10 = map[string]bool{
	methodSend: true, methodStream: true, methodGetTask: true, methodListTasks: true,
	methodCancelTask: true, methodSubscribe: true, methodExtendedCard: true, methodPushConfigSet: true,
	"GetTaskPushNotificationConfig": true, "ListTaskPushNotificationConfigs": true, "DeleteTaskPushNotificationConfig": true,
}

// call is one request being served: what was asked, in which revision,
// by whom.
type call struct {
	ctx     context.Context // ends when the caller goes away
	id      jsonrpc.ID
	version string                 // Version10 or Version03
	method  string                 // the 1.0 name, whichever revision asked
	params  json.RawMessage        // as sent, in the revision's shapes
	allow   func(tools.Scope) bool // the caller's scopes; nil: all
}

// serveRPC reads one JSON-RPC request and answers it: with one JSON
// response, or, for the two streaming methods, with an SSE stream of
// responses that all carry the request's id.
func (s *Server) serveRPC(w http.ResponseWriter, r *http.Request, body []byte, allow func(tools.Scope) bool) {
	version, verr := requestVersion(versionAsked(r))
	answerAs := version
	if verr != nil {
		answerAs = Version10 // VersionNotSupported exists only in 1.0
	}
	msg, reject := jsonrpc.Decode(body)
	if reject != nil {
		writeJSON(w, http.StatusOK, errorResponse(reject.ID, fromJSONRPC(reject.Error), answerAs))
		return
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		writeJSON(w, http.StatusOK, errorResponse(msg.(*jsonrpc.Response).ID, errorf(jsonrpc.CodeInvalidRequest,
			"invalid request: that is a response, but this agent sent no request to answer"), answerAs))
		return
	}
	if req.IsNotification() {
		// JSON-RPC never answers a notification, and A2A defines none:
		// there is nothing to do and nothing to say.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if verr != nil {
		writeJSON(w, http.StatusOK, errorResponse(req.ID, verr, answerAs))
		return
	}
	method, merr := resolveMethod(version, req.Method)
	if merr != nil {
		writeJSON(w, http.StatusOK, errorResponse(req.ID, merr, version))
		return
	}
	c := &call{ctx: r.Context(), id: req.ID, version: version, method: method, params: req.Params, allow: allow}
	if method == methodStream || method == methodSubscribe {
		s.serveStream(w, c)
		return
	}
	result, err := s.handle(c)
	if err != nil {
		writeJSON(w, http.StatusOK, errorResponse(req.ID, err, version))
		return
	}
	resp, encErr := jsonrpc.NewResponse(req.ID, result)
	if encErr != nil {
		writeJSON(w, http.StatusOK, errorResponse(req.ID, errorf(jsonrpc.CodeInternalError, "internal error: %v", encErr), version))
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// handle serves the methods that answer once, and returns the result in
// the caller's revision.
func (s *Server) handle(c *call) (any, *rpcError) {
	switch c.method {
	case methodSend:
		req, err := decodeSend(c)
		if err != nil {
			return nil, err
		}
		t, err := s.sendAndWait(c.ctx, req, c.allow)
		if err != nil {
			return nil, err
		}
		t = withHistory(t, historyLength(req.Configuration))
		if c.version == Version03 {
			return toV03Task(t), nil
		}
		return SendMessageResponse{Task: &t}, nil

	case methodGetTask:
		var req GetTaskRequest
		if c.version == Version03 {
			var p v03TaskQueryParams
			if err := decodeParams(c.params, &p); err != nil {
				return nil, err
			}
			req = fromV03TaskQuery(p)
		} else if err := decodeParams(c.params, &req); err != nil {
			return nil, err
		}
		if err := requireID(req.ID); err != nil {
			return nil, err
		}
		t, err := s.store.get(req.ID)
		if err != nil {
			return nil, taskNotFound(req.ID)
		}
		return taskResult(c.version, withHistory(t, req.HistoryLength)), nil

	case methodListTasks:
		var req ListTasksRequest
		if err := decodeParams(c.params, &req); err != nil {
			return nil, err
		}
		return s.listTasks(req)

	case methodCancelTask:
		var req TaskIDRequest
		if err := decodeParams(c.params, &req); err != nil {
			return nil, err
		}
		if err := requireID(req.ID); err != nil {
			return nil, err
		}
		t, err := s.cancel(req.ID)
		if err != nil {
			return nil, err
		}
		return taskResult(c.version, t), nil

	case methodExtendedCard:
		// 1.0 answers UnsupportedOperation when the card says
		// capabilities.extendedAgentCard is false; 0.3 had its own code.
		code := int64(CodeUnsupportedOperation)
		if c.version == Version03 {
			code = CodeExtendedCardNotAvailable
		}
		return nil, errorf(code, "this agent has no extended card (its card says so): the public card at %s says everything", CardPath)
	}
	// The push notification methods: the card says pushNotifications is
	// false, and a caller that asks anyway is told so.
	return nil, errorf(CodePushNotSupported, "push notifications are not supported by this agent (its card says capabilities.pushNotifications is false): stream, or poll with GetTask")
}

// decodeSend reads the params of SendMessage or SendStreamingMessage in
// the caller's revision, and checks the message.
func decodeSend(c *call) (SendMessageRequest, *rpcError) {
	var req SendMessageRequest
	if c.version == Version03 {
		var p v03SendParams
		if err := decodeParams(c.params, &p, badPart[v03Part]); err != nil {
			return req, err
		}
		var err error
		if req, err = fromV03SendParams(p); err != nil {
			return req, errorf(jsonrpc.CodeInvalidParams, "invalid params: %v", err)
		}
	} else if err := decodeParams(c.params, &req, badPart[Part]); err != nil {
		return req, err
	}
	if err := checkMessage(req.Message, c.params); err != nil {
		return req, err
	}
	return req, checkOutputModes(req.Configuration)
}

// decodeParams reads params into v. They must be an object. A member of
// the wrong type is named by its path, with the JSON type it must be
// (jsonrpc.ParamsProblem); find, when given, names the element of a list
// that encoding/json left unnamed.
func decodeParams(raw json.RawMessage, v any, find ...func(json.RawMessage) (string, bool)) *rpcError {
	if p := bytes.TrimSpace(raw); len(p) == 0 || p[0] != '{' {
		return errorf(jsonrpc.CodeInvalidParams, `invalid params: "params" must be an object`)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		for _, f := range find {
			if problem, ok := f(raw); ok {
				return errorf(jsonrpc.CodeInvalidParams, "invalid params: %s", problem)
			}
		}
		return errorf(jsonrpc.CodeInvalidParams, "invalid params: %s", jsonrpc.ParamsProblem(err))
	}
	return nil
}

// badPart finds the first part of params.message.parts that does not
// decode as a P (a 1.0 Part or a 0.3 part) and says what is wrong with
// it, by its position. encoding/json names a member inside a list
// without its position ("message.parts.text"), and bytes that are not
// base64 without even the member ("illegal base64 data at input byte
// 0"); decoding the parts one at a time finds which.
func badPart[P any](params json.RawMessage) (string, bool) {
	var p struct {
		Message struct {
			Parts []json.RawMessage `json:"parts"`
		} `json:"message"`
	}
	if json.Unmarshal(params, &p) != nil {
		return "", false // the mistake is not inside a part
	}
	for i, raw := range p.Message.Parts {
		var part P
		err := json.Unmarshal(raw, &part)
		if err == nil {
			continue
		}
		path := fmt.Sprintf("message.parts[%d]", i)
		var te *json.UnmarshalTypeError
		var b64 base64.CorruptInputError
		switch {
		case errors.As(err, &te) && te.Field != "":
			te.Field = path + "." + te.Field
			return jsonrpc.ParamsProblem(te), true
		case errors.As(err, &te):
			te.Field = path
			return jsonrpc.ParamsProblem(te), true
		case errors.As(err, &b64):
			return fmt.Sprintf(`%q must be standard base64, with padding; it breaks at byte %d`, path+".raw", int64(b64)), true
		}
		return fmt.Sprintf("%s: %s", path, jsonrpc.ParamsProblem(err)), true
	}
	return "", false
}

// requireID refuses a request about a task that names none. Without this
// check, GetTask {} would look up the task with id "" and answer -32001,
// as if the caller had named a task that does not exist.
func requireID(id string) *rpcError {
	if id == "" {
		return errorf(jsonrpc.CodeInvalidParams, `invalid params: "id" is required: the id of the task, as SendMessage returned it`)
	}
	return nil
}

// versionAsked is the revision a request names: in the A2A-Version
// header, or, as the spec also allows, in a query parameter of the same
// name (POST /?A2A-Version=1.0).
func versionAsked(r *http.Request) string {
	if v := r.Header.Get(VersionHeader); v != "" {
		return v
	}
	return r.URL.Query().Get(VersionHeader)
}

// requestVersion reads the A2A-Version header. Only major and minor
// count: "1.0" and "1.0.0" are the same revision.
func requestVersion(header string) (string, *rpcError) {
	v := strings.TrimSpace(header)
	if v == "" {
		return Version03, nil // "absent means 0.3"
	}
	for _, known := range []string{Version10, Version03} {
		if v == known || strings.HasPrefix(v, known+".") {
			return known, nil
		}
	}
	return "", errorf(CodeVersionNotSupported, "version not supported: this agent speaks A2A %s and %s (send %s: 1.0, or no header for 0.3); got %s",
		Version10, Version03, VersionHeader, quote(header)).with("requestedVersion", header).with("supportedVersions", Version10+","+Version03)
}

// resolveMethod names the 1.0 method a request asks for. Each revision
// knows only its own names; a name from the other one gets
// MethodNotFound, with the way to say it.
func resolveMethod(version, name string) (string, *rpcError) {
	old, isOld := fromV03Method(name)
	if version == Version10 {
		if methods10[name] {
			return name, nil
		}
		if isOld {
			return "", errorf(jsonrpc.CodeMethodNotFound, "method not found: %q is the 0.3 name; in 1.0 it is %q (or leave out the %s header to speak 0.3)", name, old, VersionHeader).with("method", name)
		}
	} else {
		if isOld {
			return old, nil
		}
		if methods10[name] {
			return "", errorf(jsonrpc.CodeMethodNotFound, "method not found: %q is a 1.0 method, and a request without %s: 1.0 speaks 0.3; send the header, or use the 0.3 name", name, VersionHeader).with("method", name)
		}
	}
	return "", errorf(jsonrpc.CodeMethodNotFound, "method not found: %q is not an A2A %s method", name, version).with("method", name)
}

// taskResult is a task as the revision writes it: 1.0 sends the Task
// itself, 0.3 adds "kind":"task".
func taskResult(version string, t Task) any {
	if version == Version03 {
		return toV03Task(t)
	}
	return t
}

// eventResult is one stream event as the revision writes it.
func eventResult(version string, ev StreamResponse) any {
	if version == Version03 {
		return toV03Event(ev)
	}
	return ev
}

func errorResponse(id jsonrpc.ID, err *rpcError, version string) *jsonrpc.Response {
	return jsonrpc.NewErrorResponse(id, err.wire(version))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
