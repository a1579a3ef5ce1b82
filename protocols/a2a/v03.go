package a2a

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Revision 0.3 of A2A carries the same ideas as 1.0 (tasks, messages,
// parts, artifacts, an agent card) in different JSON. This file holds the
// 0.3 shapes and pure functions that translate them to and from the 1.0
// types of wire.go, which are this package's own model. Each 0.3 type
// says what changed in 1.0. In short:
//
//   - 0.3 objects name their own type in a "kind" field ("task",
//     "message", "status-update", "artifact-update"; parts "text", "file",
//     "data"). 1.0 dropped "kind": a result is wrapped in an object whose
//     one key says what it is ({"task": {...}}).
//   - Enums were lower-case words ("working", "user"); 1.0 writes the
//     protobuf names ("TASK_STATE_WORKING", "ROLE_USER").
//   - Methods were paths ("message/send"); 1.0 names them like RPCs
//     ("SendMessage").
//   - A stream's last status event said final:true; a 1.0 stream just
//     ends after a terminal or interrupted state.

// fromV03Method names the 1.0 method that does what a 0.3 method did, or
// reports false for a name 0.3 did not have.
func fromV03Method(method string) (string, bool) {
	switch method {
	case "message/send":
		return "SendMessage", true
	case "message/stream":
		return "SendStreamingMessage", true
	case "tasks/get":
		return "GetTask", true
	case "tasks/cancel":
		return "CancelTask", true
	case "tasks/resubscribe":
		return "SubscribeToTask", true
	case "tasks/pushNotificationConfig/set":
		return "CreateTaskPushNotificationConfig", true
	case "tasks/pushNotificationConfig/get":
		return "GetTaskPushNotificationConfig", true
	case "tasks/pushNotificationConfig/list":
		return "ListTaskPushNotificationConfigs", true
	case "tasks/pushNotificationConfig/delete":
		return "DeleteTaskPushNotificationConfig", true
	case "agent/getAuthenticatedExtendedCard":
		return "GetExtendedAgentCard", true
	}
	return "", false
}

// v03State spells a 1.0 task state the 0.3 way. 0.3 also had "unknown",
// for "indeterminate", which is the honest answer for a state 0.3 cannot
// name.
func v03State(s TaskState) string {
	switch s {
	case StateSubmitted:
		return "submitted"
	case StateWorking:
		return "working"
	case StateInputRequired:
		return "input-required"
	case StateAuthRequired:
		return "auth-required"
	case StateCompleted:
		return "completed"
	case StateFailed:
		return "failed"
	case StateCanceled:
		return "canceled"
	case StateRejected:
		return "rejected"
	}
	return "unknown"
}

// fromV03State is the inverse of v03State. 0.3's "unknown" has no 1.0
// equivalent (1.0 removed it), so it is an error, like any other word.
func fromV03State(s string) (TaskState, error) {
	for _, state := range []TaskState{StateSubmitted, StateWorking, StateInputRequired,
		StateAuthRequired, StateCompleted, StateFailed, StateCanceled, StateRejected} {
		if v03State(state) == s {
			return state, nil
		}
	}
	return "", fmt.Errorf("task state %q has no 1.0 equivalent; 0.3 states are submitted, working, input-required, auth-required, completed, failed, canceled and rejected", s)
}

// v03Role spells a role the 0.3 way: "user" or "agent".
func v03Role(r Role) string {
	switch r {
	case RoleUser:
		return "user"
	case RoleAgent:
		return "agent"
	}
	return ""
}

// fromV03Role is the inverse of v03Role.
func fromV03Role(r string) (Role, error) {
	switch r {
	case "user":
		return RoleUser, nil
	case "agent":
		return RoleAgent, nil
	case "":
		return "", errors.New(`message has no "role": it is "user" or "agent"`)
	}
	return "", fmt.Errorf(`message role %q is not "user" or "agent"`, r)
}

// v03Part is one piece of a 0.3 message or artifact. Where 1.0 has one
// flat Part with text, raw, url or data, 0.3 had three kinds:
//
//	{"kind":"text","text":"hi"}
//	{"kind":"file","file":{"bytes":"aGk=","mimeType":"text/plain","name":"hi.txt"}}
//	{"kind":"file","file":{"uri":"https://example.com/hi.txt"}}
//	{"kind":"data","data":{"any":"object"}}
//
// 1.0's raw and url both become a file part; its mediaType and filename
// were the file's mimeType and name, and text and data parts had neither.
type v03Part struct {
	Kind     string          `json:"kind"`
	Text     *string         `json:"text,omitempty"`
	File     *v03File        `json:"file,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"` // a JSON object in 0.3
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// v03File is the content of a 0.3 file part: exactly one of Bytes (base64
// text) and URI.
type v03File struct {
	Bytes    string `json:"bytes,omitempty"`
	URI      string `json:"uri,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	Name     string `json:"name,omitempty"`
}

// 0.3 data must be a JSON object; 1.0 data can be any JSON value. The
// official Go SDK's 0.3 bridge wraps other values as {"value": v} and
// marks the part's metadata with "data_part_compat": true. We use the
// same convention, so that its clients unwrap what we wrap and we unwrap
// what it wraps.
const (
	dataCompatKey   = "data_part_compat"
	dataCompatValue = "value"
)

// toV03Part writes a 1.0 part as the 0.3 part of the same content.
func toV03Part(p Part) v03Part {
	switch {
	case p.Text != nil:
		return v03Part{Kind: "text", Text: p.Text, Metadata: p.Metadata}
	case p.Raw != nil:
		file := v03File{Bytes: base64.StdEncoding.EncodeToString(p.Raw), MimeType: p.MediaType, Name: p.Filename}
		return v03Part{Kind: "file", File: &file, Metadata: p.Metadata}
	case p.URL != nil:
		file := v03File{URI: *p.URL, MimeType: p.MediaType, Name: p.Filename}
		return v03Part{Kind: "file", File: &file, Metadata: p.Metadata}
	case p.Data != nil:
		if isJSONObject(p.Data) {
			return v03Part{Kind: "data", Data: p.Data, Metadata: p.Metadata}
		}
		wrapped := append([]byte(`{"`+dataCompatValue+`":`), p.Data...)
		wrapped = append(wrapped, '}')
		return v03Part{Kind: "data", Data: wrapped, Metadata: withCompatMark(p.Metadata)}
	}
	// A part with no content is not valid 1.0. Writing it as empty text
	// keeps one bad part from failing a whole response.
	empty := ""
	return v03Part{Kind: "text", Text: &empty, Metadata: p.Metadata}
}

// fromV03Part reads a 0.3 part by its kind, refusing what 0.3 forbids.
func fromV03Part(p v03Part) (Part, error) {
	switch p.Kind {
	case "text":
		if p.Text == nil {
			return Part{}, errors.New(`a "text" part needs a "text" field`)
		}
		return Part{Text: p.Text, Metadata: p.Metadata}, nil
	case "file":
		return fromV03File(p)
	case "data":
		return fromV03Data(p)
	case "":
		return Part{}, errors.New(`part has no "kind"; in 0.3 it is "text", "file" or "data" (1.0 parts have no kind: is this 1.0 JSON?)`)
	}
	return Part{}, fmt.Errorf(`part kind %q is not "text", "file" or "data"`, p.Kind)
}

func fromV03File(p v03Part) (Part, error) {
	f := p.File
	switch {
	case f == nil:
		return Part{}, errors.New(`a "file" part needs a "file" object`)
	case f.Bytes != "" && f.URI != "":
		return Part{}, errors.New(`a file has "bytes" or "uri", not both`)
	case f.URI != "":
		uri := f.URI
		return Part{URL: &uri, MediaType: f.MimeType, Filename: f.Name, Metadata: p.Metadata}, nil
	case f.Bytes != "":
		raw, err := base64.StdEncoding.DecodeString(f.Bytes)
		if err != nil {
			return Part{}, fmt.Errorf(`file "bytes" must be standard base64: %w`, err)
		}
		return Part{Raw: raw, MediaType: f.MimeType, Filename: f.Name, Metadata: p.Metadata}, nil
	}
	return Part{}, errors.New(`a file needs "bytes" (base64 content) or "uri" (a link to it)`)
}

func fromV03Data(p v03Part) (Part, error) {
	if len(p.Data) == 0 {
		return Part{}, errors.New(`a "data" part needs a "data" object`)
	}
	if !isJSONObject(p.Data) {
		return Part{}, fmt.Errorf(`a "data" part's "data" must be a JSON object in 0.3, got %.40q`, p.Data)
	}
	part := DataPart(p.Data) // 0.3 data is always JSON: its media type in 1.0 is application/json
	part.Metadata = p.Metadata
	meta, marked := withoutCompatMark(p.Metadata)
	if !marked {
		return part, nil
	}
	var wrapper map[string]json.RawMessage
	if err := json.Unmarshal(p.Data, &wrapper); err != nil {
		return Part{}, fmt.Errorf("reading wrapped data: %w", err)
	}
	value, ok := wrapper[dataCompatValue]
	if !ok {
		return Part{}, fmt.Errorf(`data marked %q has no %q`, dataCompatKey, dataCompatValue)
	}
	part.Data, part.Metadata = value, meta
	return part, nil
}

// isJSONObject reports whether raw holds a JSON object.
func isJSONObject(raw json.RawMessage) bool {
	trimmed := bytes.TrimSpace(raw)
	return len(trimmed) > 0 && trimmed[0] == '{'
}

// withCompatMark returns metadata with "data_part_compat": true added.
// Metadata that is not a JSON object is invalid in both revisions and is
// replaced.
func withCompatMark(meta json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(meta, &fields) != nil || fields == nil { // absent, null, or not an object
		fields = map[string]json.RawMessage{}
	}
	fields[dataCompatKey] = json.RawMessage("true")
	out, _ := json.Marshal(fields) // cannot fail: string keys, values already valid JSON
	return out
}

// withoutCompatMark reports whether metadata carries "data_part_compat":
// true, and returns it without that key (nil if nothing else is left).
func withoutCompatMark(meta json.RawMessage) (json.RawMessage, bool) {
	var fields map[string]json.RawMessage
	if len(meta) == 0 || json.Unmarshal(meta, &fields) != nil || string(fields[dataCompatKey]) != "true" {
		return meta, false
	}
	delete(fields, dataCompatKey)
	if len(fields) == 0 {
		return nil, true
	}
	out, _ := json.Marshal(fields) // cannot fail, as above
	return out, true
}

// v03Message is a 0.3 message: as in 1.0, plus "kind":"message", with
// the role "user" or "agent" instead of "ROLE_USER" or "ROLE_AGENT".
type v03Message struct {
	Kind             string          `json:"kind"`
	MessageID        string          `json:"messageId"`
	ContextID        string          `json:"contextId,omitempty"`
	TaskID           string          `json:"taskId,omitempty"`
	Role             string          `json:"role"`
	Parts            []v03Part       `json:"parts"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Extensions       []string        `json:"extensions,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitempty"`
}

func toV03Message(m Message) v03Message {
	return v03Message{
		Kind:             "message",
		MessageID:        m.MessageID,
		ContextID:        m.ContextID,
		TaskID:           m.TaskID,
		Role:             v03Role(m.Role),
		Parts:            toV03Parts(m.Parts),
		Metadata:         m.Metadata,
		Extensions:       m.Extensions,
		ReferenceTaskIDs: m.ReferenceTaskIDs,
	}
}

func fromV03Message(m v03Message) (Message, error) {
	// 0.3 requires "kind":"message", but a message is already known to be
	// one where it appears, so only a wrong kind is refused.
	if m.Kind != "" && m.Kind != "message" {
		return Message{}, fmt.Errorf(`expected a message, got kind %q`, m.Kind)
	}
	role, err := fromV03Role(m.Role)
	if err != nil {
		return Message{}, err
	}
	parts, err := fromV03Parts(m.Parts)
	if err != nil {
		return Message{}, fmt.Errorf("message %q: %w", m.MessageID, err)
	}
	return Message{
		MessageID:        m.MessageID,
		ContextID:        m.ContextID,
		TaskID:           m.TaskID,
		Role:             role,
		Parts:            parts,
		Metadata:         m.Metadata,
		Extensions:       m.Extensions,
		ReferenceTaskIDs: m.ReferenceTaskIDs,
	}, nil
}

// toV03Parts always returns a list, never nil: 0.3 requires "parts":[...].
func toV03Parts(parts []Part) []v03Part {
	out := make([]v03Part, 0, len(parts))
	for _, p := range parts {
		out = append(out, toV03Part(p))
	}
	return out
}

func fromV03Parts(parts []v03Part) ([]Part, error) {
	out := make([]Part, 0, len(parts))
	for i, p := range parts {
		part, err := fromV03Part(p)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", i, err)
		}
		out = append(out, part)
	}
	return out, nil
}

// v03TaskStatus is a 0.3 task status: the state is a lower-case word.
type v03TaskStatus struct {
	State     string      `json:"state"`
	Message   *v03Message `json:"message,omitempty"`
	Timestamp *time.Time  `json:"timestamp,omitempty"`
}

func toV03Status(s TaskStatus) v03TaskStatus {
	out := v03TaskStatus{State: v03State(s.State), Timestamp: s.Timestamp}
	if s.Message != nil {
		m := toV03Message(*s.Message)
		out.Message = &m
	}
	return out
}

func fromV03Status(s v03TaskStatus) (TaskStatus, error) {
	state, err := fromV03State(s.State)
	if err != nil {
		return TaskStatus{}, err
	}
	out := TaskStatus{State: state, Timestamp: s.Timestamp}
	if s.Message != nil {
		m, err := fromV03Message(*s.Message)
		if err != nil {
			return TaskStatus{}, fmt.Errorf("status message: %w", err)
		}
		out.Message = &m
	}
	return out, nil
}

// v03Artifact is a 0.3 artifact: the same fields, with 0.3 parts.
type v03Artifact struct {
	ArtifactID  string          `json:"artifactId"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Parts       []v03Part       `json:"parts"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
}

func toV03Artifact(a Artifact) v03Artifact {
	return v03Artifact{ArtifactID: a.ArtifactID, Name: a.Name, Description: a.Description,
		Parts: toV03Parts(a.Parts), Metadata: a.Metadata}
}

func fromV03Artifact(a v03Artifact) (Artifact, error) {
	parts, err := fromV03Parts(a.Parts)
	if err != nil {
		return Artifact{}, fmt.Errorf("artifact %q: %w", a.ArtifactID, err)
	}
	return Artifact{ArtifactID: a.ArtifactID, Name: a.Name, Description: a.Description,
		Parts: parts, Metadata: a.Metadata}, nil
}

// v03Task is a 0.3 task: as in 1.0, plus "kind":"task".
type v03Task struct {
	Kind      string          `json:"kind"`
	ID        string          `json:"id"`
	ContextID string          `json:"contextId"`
	Status    v03TaskStatus   `json:"status"`
	Artifacts []v03Artifact   `json:"artifacts,omitempty"`
	History   []v03Message    `json:"history,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

func toV03Task(t Task) v03Task {
	out := v03Task{Kind: "task", ID: t.ID, ContextID: t.ContextID, Status: toV03Status(t.Status), Metadata: t.Metadata}
	for _, a := range t.Artifacts {
		out.Artifacts = append(out.Artifacts, toV03Artifact(a))
	}
	for _, m := range t.History {
		out.History = append(out.History, toV03Message(m))
	}
	return out
}

func fromV03Task(t v03Task) (Task, error) {
	if t.Kind != "" && t.Kind != "task" {
		return Task{}, fmt.Errorf(`expected a task, got kind %q`, t.Kind)
	}
	status, err := fromV03Status(t.Status)
	if err != nil {
		return Task{}, fmt.Errorf("task %q: %w", t.ID, err)
	}
	out := Task{ID: t.ID, ContextID: t.ContextID, Status: status, Metadata: t.Metadata}
	for _, a := range t.Artifacts {
		artifact, err := fromV03Artifact(a)
		if err != nil {
			return Task{}, fmt.Errorf("task %q: %w", t.ID, err)
		}
		out.Artifacts = append(out.Artifacts, artifact)
	}
	for _, m := range t.History {
		msg, err := fromV03Message(m)
		if err != nil {
			return Task{}, fmt.Errorf("task %q history: %w", t.ID, err)
		}
		out.History = append(out.History, msg)
	}
	return out, nil
}

// v03StatusEvent is a 0.3 status update: "kind":"status-update", and
// "final", which 1.0 removed. It is true on the last event of a stream;
// a 1.0 client instead knows the stream ends after a terminal or
// interrupted state.
type v03StatusEvent struct {
	Kind      string          `json:"kind"`
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Status    v03TaskStatus   `json:"status"`
	Final     bool            `json:"final"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

func toV03StatusEvent(e TaskStatusUpdateEvent, final bool) v03StatusEvent {
	return v03StatusEvent{Kind: "status-update", TaskID: e.TaskID, ContextID: e.ContextID,
		Status: toV03Status(e.Status), Final: final, Metadata: e.Metadata}
}

func fromV03StatusEvent(e v03StatusEvent) (TaskStatusUpdateEvent, error) {
	status, err := fromV03Status(e.Status)
	if err != nil {
		return TaskStatusUpdateEvent{}, fmt.Errorf("status update of task %q: %w", e.TaskID, err)
	}
	return TaskStatusUpdateEvent{TaskID: e.TaskID, ContextID: e.ContextID, Status: status, Metadata: e.Metadata}, nil
}

// v03ArtifactEvent is a 0.3 artifact update: "kind":"artifact-update",
// otherwise as in 1.0. It never had "final".
type v03ArtifactEvent struct {
	Kind      string          `json:"kind"`
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Artifact  v03Artifact     `json:"artifact"`
	Append    bool            `json:"append,omitempty"`
	LastChunk bool            `json:"lastChunk,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

func toV03ArtifactEvent(e TaskArtifactUpdateEvent) v03ArtifactEvent {
	return v03ArtifactEvent{Kind: "artifact-update", TaskID: e.TaskID, ContextID: e.ContextID,
		Artifact: toV03Artifact(e.Artifact), Append: e.Append, LastChunk: e.LastChunk, Metadata: e.Metadata}
}

func fromV03ArtifactEvent(e v03ArtifactEvent) (TaskArtifactUpdateEvent, error) {
	artifact, err := fromV03Artifact(e.Artifact)
	if err != nil {
		return TaskArtifactUpdateEvent{}, fmt.Errorf("artifact update of task %q: %w", e.TaskID, err)
	}
	return TaskArtifactUpdateEvent{TaskID: e.TaskID, ContextID: e.ContextID, Artifact: artifact,
		Append: e.Append, LastChunk: e.LastChunk, Metadata: e.Metadata}, nil
}

// toV03Event turns one 1.0 stream event into the 0.3 result of one SSE
// event. 1.0 wraps it ({"statusUpdate": {...}}); 0.3 sends the object
// itself, which names its kind. It returns nil for an empty event.
func toV03Event(ev StreamResponse) any {
	switch {
	case ev.Task != nil:
		return toV03Task(*ev.Task)
	case ev.Message != nil:
		return toV03Message(*ev.Message)
	case ev.StatusUpdate != nil:
		// "final: If true, this is the final event in the stream for this
		// interaction." A 1.0 stream ends after a terminal or interrupted
		// state, so that is the event to mark.
		state := ev.StatusUpdate.Status.State
		return toV03StatusEvent(*ev.StatusUpdate, state.Terminal() || state.Interrupted())
	case ev.ArtifactUpdate != nil:
		return toV03ArtifactEvent(*ev.ArtifactUpdate)
	}
	return nil
}

// toV03Result turns a SendMessage result into message/send's 0.3 result:
// the Task or Message itself, not wrapped in {"task": ...}.
func toV03Result(r SendMessageResponse) any {
	return toV03Event(StreamResponse{Task: r.Task, Message: r.Message})
}

// fromV03Event reads one 0.3 result (of message/send, or of one stream
// event) by its "kind", and reports a status update's "final".
func fromV03Event(raw json.RawMessage) (StreamResponse, bool, error) {
	var head struct {
		Kind  string `json:"kind"`
		Final bool   `json:"final"` // only status updates have it
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return StreamResponse{}, false, fmt.Errorf("reading 0.3 result: %w", err)
	}
	switch head.Kind {
	case "task":
		task, err := decodeV03(raw, fromV03Task)
		return StreamResponse{Task: task}, false, err
	case "message":
		msg, err := decodeV03(raw, fromV03Message)
		return StreamResponse{Message: msg}, false, err
	case "status-update":
		ev, err := decodeV03(raw, fromV03StatusEvent)
		return StreamResponse{StatusUpdate: ev}, head.Final, err
	case "artifact-update":
		ev, err := decodeV03(raw, fromV03ArtifactEvent)
		return StreamResponse{ArtifactUpdate: ev}, false, err
	case "":
		return StreamResponse{}, false, errors.New(`0.3 result has no "kind" (is it 1.0, wrapped as {"task": ...}?)`)
	}
	return StreamResponse{}, false, fmt.Errorf(`0.3 result kind %q is not "task", "message", "status-update" or "artifact-update"`, head.Kind)
}

// decodeV03 decodes raw as the 0.3 type T and converts it to the 1.0
// type R with from. It returns nil with any error.
func decodeV03[T, R any](raw json.RawMessage, from func(T) (R, error)) (*R, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	r, err := from(v)
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// v03SendParams is the params of message/send and message/stream
// (MessageSendParams). 1.0 kept the shape and renamed it
// SendMessageRequest; only the configuration changed.
type v03SendParams struct {
	Message       v03Message      `json:"message"`
	Configuration *v03SendConfig  `json:"configuration,omitempty"`
	Metadata      json.RawMessage `json:"metadata,omitempty"`
}

// v03SendConfig is 0.3's MessageSendConfiguration. "blocking": true asked
// the agent to answer only when the task is done or interrupted; 1.0
// turned it around: "returnImmediately": true asks it not to wait.
// Without either, both wait (the Go SDK's 0.3 server defaults blocking to
// true).
type v03SendConfig struct {
	AcceptedOutputModes []string `json:"acceptedOutputModes,omitempty"`
	HistoryLength       *int     `json:"historyLength,omitempty"`
	Blocking            *bool    `json:"blocking,omitempty"`
}

// toV03SendParams writes a 1.0 request as 0.3 params, as a 0.3 client
// would send it.
func toV03SendParams(r SendMessageRequest) v03SendParams {
	out := v03SendParams{Message: toV03Message(r.Message), Metadata: r.Metadata}
	if c := r.Configuration; c != nil {
		blocking := !c.ReturnImmediately
		out.Configuration = &v03SendConfig{AcceptedOutputModes: c.AcceptedOutputModes,
			HistoryLength: c.HistoryLength, Blocking: &blocking}
	}
	return out
}

// fromV03SendParams reads what a 0.3 client sent as a 1.0 request.
func fromV03SendParams(p v03SendParams) (SendMessageRequest, error) {
	if m := p.Message; m.MessageID == "" && m.Role == "" && m.Parts == nil && m.Kind == "" {
		// Absent, null and {} all decode to the zero message.
		return SendMessageRequest{}, errors.New(`"message" is missing or empty: send {"message": {"kind": "message", "messageId": "...", "role": "user", "parts": [{"kind": "text", "text": "count the words"}]}}`)
	}
	msg, err := fromV03Message(p.Message)
	if err != nil {
		return SendMessageRequest{}, err
	}
	out := SendMessageRequest{Message: msg, Metadata: p.Metadata}
	if c := p.Configuration; c != nil {
		out.Configuration = &SendMessageConfiguration{
			AcceptedOutputModes: c.AcceptedOutputModes,
			HistoryLength:       c.HistoryLength,
			ReturnImmediately:   c.Blocking != nil && !*c.Blocking,
		}
	}
	return out, nil
}

// v03TaskQueryParams is the params of tasks/get: 1.0's GetTaskRequest
// plus "metadata", which 1.0 dropped. (tasks/cancel and tasks/resubscribe
// take TaskIdParams, {"id", "metadata"}: the same JSON as TaskIDRequest.)
type v03TaskQueryParams struct {
	ID            string          `json:"id"`
	HistoryLength *int            `json:"historyLength,omitempty"`
	Metadata      json.RawMessage `json:"metadata,omitempty"`
}

func fromV03TaskQuery(p v03TaskQueryParams) GetTaskRequest {
	return GetTaskRequest{ID: p.ID, HistoryLength: p.HistoryLength}
}
