package a2a

import (
	"encoding/json"
	"time"
)

// The messages of A2A 1.0 exactly as they appear on the wire. The
// normative source is the specification's a2a.proto, and its JSON form is
// ProtoJSON: field names in lowerCamelCase, enums as their full names
// ("TASK_STATE_WORKING"), bytes as base64, timestamps as RFC 3339 text.
// Revision 0.3 spells many of these differently; v03.go translates.

// Versions this server speaks, as the A2A-Version header names them.
const (
	Version10 = "1.0"
	Version03 = "0.3"
)

// TaskState is where a task is in its life.
type TaskState string

// The states of a task. Completed, failed, canceled and rejected are
// terminal: a task that reaches one never changes again. Input-required
// and auth-required are interrupted: the task waits for the caller.
const (
	StateSubmitted     TaskState = "TASK_STATE_SUBMITTED"
	StateWorking       TaskState = "TASK_STATE_WORKING"
	StateInputRequired TaskState = "TASK_STATE_INPUT_REQUIRED"
	StateAuthRequired  TaskState = "TASK_STATE_AUTH_REQUIRED"
	StateCompleted     TaskState = "TASK_STATE_COMPLETED"
	StateFailed        TaskState = "TASK_STATE_FAILED"
	StateCanceled      TaskState = "TASK_STATE_CANCELED"
	StateRejected      TaskState = "TASK_STATE_REJECTED"
)

// Terminal reports whether a task in this state is finished for good.
func (s TaskState) Terminal() bool {
	switch s {
	case StateCompleted, StateFailed, StateCanceled, StateRejected:
		return true
	}
	return false
}

// Interrupted reports whether a task in this state waits for the caller.
func (s TaskState) Interrupted() bool {
	return s == StateInputRequired || s == StateAuthRequired
}

// Role says who wrote a message.
type Role string

// The two roles.
const (
	RoleUser  Role = "ROLE_USER"
	RoleAgent Role = "ROLE_AGENT"
)

// Part is one piece of a message or an artifact. Exactly one of Text,
// Raw, URL and Data is set; MediaType says what it holds.
type Part struct {
	Text      *string         `json:"text,omitempty"`
	Raw       []byte          `json:"raw,omitempty"` // base64 on the wire
	URL       *string         `json:"url,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"` // any JSON value
	MediaType string          `json:"mediaType,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// TextPart is a part holding text.
func TextPart(s string) Part { return Part{Text: &s} }

// DataPart is a part holding a JSON value.
func DataPart(v json.RawMessage) Part { return Part{Data: v, MediaType: "application/json"} }

// Message is one turn of a conversation, from the user or the agent.
type Message struct {
	MessageID        string          `json:"messageId"`
	ContextID        string          `json:"contextId,omitempty"`
	TaskID           string          `json:"taskId,omitempty"`
	Role             Role            `json:"role"`
	Parts            []Part          `json:"parts"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Extensions       []string        `json:"extensions,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitempty"`
}

// TaskStatus is a task's state, with the agent's message about it.
type TaskStatus struct {
	State     TaskState  `json:"state"`
	Message   *Message   `json:"message,omitempty"`
	Timestamp *time.Time `json:"timestamp,omitempty"`
}

// Artifact is something a task produced: a result, in parts.
type Artifact struct {
	ArtifactID  string          `json:"artifactId"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Parts       []Part          `json:"parts"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
}

// Task is a unit of work the agent does for a caller. ContextID groups
// the tasks and messages of one conversation.
type Task struct {
	ID        string          `json:"id"`
	ContextID string          `json:"contextId"`
	Status    TaskStatus      `json:"status"`
	Artifacts []Artifact      `json:"artifacts,omitempty"`
	History   []Message       `json:"history,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// TaskStatusUpdateEvent tells a streaming caller that a task's status
// changed.
type TaskStatusUpdateEvent struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Status    TaskStatus      `json:"status"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// TaskArtifactUpdateEvent carries an artifact, or a chunk of one: Append
// adds the parts to the artifact with the same id, and LastChunk says
// it is complete.
type TaskArtifactUpdateEvent struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Artifact  Artifact        `json:"artifact"`
	Append    bool            `json:"append,omitempty"`
	LastChunk bool            `json:"lastChunk,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// SendMessageConfiguration tunes SendMessage.
type SendMessageConfiguration struct {
	AcceptedOutputModes []string `json:"acceptedOutputModes,omitempty"`
	HistoryLength       *int     `json:"historyLength,omitempty"`
	// ReturnImmediately asks for the task as soon as it exists, instead
	// of waiting until it is terminal or interrupted.
	ReturnImmediately bool `json:"returnImmediately,omitempty"`
}

// SendMessageRequest is the params of SendMessage and
// SendStreamingMessage.
type SendMessageRequest struct {
	Message       Message                   `json:"message"`
	Configuration *SendMessageConfiguration `json:"configuration,omitempty"`
	Metadata      json.RawMessage           `json:"metadata,omitempty"`
}

// SendMessageResponse is the result of SendMessage: a task, or, for an
// exchange that needed no task, a message. Exactly one is set.
type SendMessageResponse struct {
	Task    *Task    `json:"task,omitempty"`
	Message *Message `json:"message,omitempty"`
}

// StreamResponse is one event of a stream (the result of one SSE event).
// Exactly one member is set.
type StreamResponse struct {
	Task           *Task                    `json:"task,omitempty"`
	Message        *Message                 `json:"message,omitempty"`
	StatusUpdate   *TaskStatusUpdateEvent   `json:"statusUpdate,omitempty"`
	ArtifactUpdate *TaskArtifactUpdateEvent `json:"artifactUpdate,omitempty"`
}

// GetTaskRequest is the params of GetTask. HistoryLength caps the
// messages returned, newest last.
type GetTaskRequest struct {
	ID            string `json:"id"`
	HistoryLength *int   `json:"historyLength,omitempty"`
}

// ListTasksRequest is the params of ListTasks: filters and a page.
type ListTasksRequest struct {
	ContextID        string    `json:"contextId,omitempty"`
	Status           TaskState `json:"status,omitempty"`
	PageSize         *int      `json:"pageSize,omitempty"`
	PageToken        string    `json:"pageToken,omitempty"`
	HistoryLength    *int      `json:"historyLength,omitempty"`
	IncludeArtifacts *bool     `json:"includeArtifacts,omitempty"`
}

// ListTasksResponse is a page of tasks, newest first.
type ListTasksResponse struct {
	Tasks         []Task `json:"tasks"`
	NextPageToken string `json:"nextPageToken"`
	PageSize      int    `json:"pageSize"`
	TotalSize     int    `json:"totalSize"`
}

// TaskIDRequest is the params of CancelTask and SubscribeToTask.
type TaskIDRequest struct {
	ID       string          `json:"id"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// AgentCard describes an agent: who it is, where and how to talk to it,
// what it can do. It is served at /.well-known/agent-card.json.
type AgentCard struct {
	Name                 string                    `json:"name"`
	Description          string                    `json:"description"`
	SupportedInterfaces  []AgentInterface          `json:"supportedInterfaces"`
	Provider             *AgentProvider            `json:"provider,omitempty"`
	Version              string                    `json:"version"`
	DocumentationURL     string                    `json:"documentationUrl,omitempty"`
	Capabilities         AgentCapabilities         `json:"capabilities"`
	SecuritySchemes      map[string]SecurityScheme `json:"securitySchemes,omitempty"`
	SecurityRequirements []SecurityRequirement     `json:"securityRequirements,omitempty"`
	DefaultInputModes    []string                  `json:"defaultInputModes"`
	DefaultOutputModes   []string                  `json:"defaultOutputModes"`
	Skills               []AgentSkill              `json:"skills"`
}

// AgentInterface is one way to reach the agent: a URL, a binding
// ("JSONRPC", "GRPC" or "HTTP+JSON") and the protocol version spoken there.
type AgentInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
}

// AgentProvider names who runs the agent.
type AgentProvider struct {
	URL          string `json:"url"`
	Organization string `json:"organization"`
}

// AgentCapabilities lists the optional features the agent supports.
type AgentCapabilities struct {
	Streaming         *bool `json:"streaming,omitempty"`
	PushNotifications *bool `json:"pushNotifications,omitempty"`
	ExtendedAgentCard *bool `json:"extendedAgentCard,omitempty"`
}

// AgentSkill is one thing the agent is good at, with examples of what to
// ask.
type AgentSkill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	Examples    []string `json:"examples,omitempty"`
	InputModes  []string `json:"inputModes,omitempty"`
	OutputModes []string `json:"outputModes,omitempty"`
}

// SecurityScheme declares how callers authenticate. This server only
// uses HTTP bearer tokens.
type SecurityScheme struct {
	HTTPAuthSecurityScheme *HTTPAuthSecurityScheme `json:"httpAuthSecurityScheme,omitempty"`
}

// HTTPAuthSecurityScheme is an HTTP authentication scheme, such as
// "Bearer".
type HTTPAuthSecurityScheme struct {
	Description string `json:"description,omitempty"`
	Scheme      string `json:"scheme"`
}

// SecurityRequirement names the schemes a call must satisfy, each with
// the scopes it needs.
type SecurityRequirement struct {
	Schemes map[string]StringList `json:"schemes"`
}

// StringList is a list of strings, as 1.0 wraps one in an object.
type StringList struct {
	List []string `json:"list"`
}
