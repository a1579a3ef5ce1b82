package mcp

import "encoding/json"

// LatestVersion is the newest protocol revision this server speaks, the
// one the course teaches.
const LatestVersion = "2025-11-25"

// supportedVersion reports whether a revision is one this server speaks.
// Revisions are dates, so a client and a server can tell which is newer.
func supportedVersion(v string) bool {
	switch v {
	case "2025-11-25", "2025-06-18", "2025-03-26":
		return true
	}
	return false
}

// Implementation names a client or a server and its version.
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// InitializeParams is the client's opening message.
type InitializeParams struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ClientCapabilities `json:"capabilities"`
	ClientInfo      Implementation     `json:"clientInfo"`
}

// ClientCapabilities says which requests the client will answer. A
// member's presence is what counts, whatever it holds.
type ClientCapabilities struct {
	Elicitation json.RawMessage `json:"elicitation,omitempty"`
	Sampling    json.RawMessage `json:"sampling,omitempty"`
	Roots       json.RawMessage `json:"roots,omitempty"`
}

// InitializeResult is the server's answer: the revision both will speak,
// and what the server offers.
type InitializeResult struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ServerCapabilities `json:"capabilities"`
	ServerInfo      Implementation     `json:"serverInfo"`
	Instructions    string             `json:"instructions,omitempty"`
}

// ServerCapabilities lists the features the server offers.
type ServerCapabilities struct {
	Tools *ToolsCapability `json:"tools,omitempty"`
}

// ToolsCapability says the server has tools; listChanged would promise a
// notification when the list changes.
type ToolsCapability struct {
	ListChanged bool `json:"listChanged"`
}

// Tool describes one tool to a client (and, through it, to a model).
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// ListToolsParams asks for a page of tools; Cursor comes from the
// previous page's NextCursor.
type ListToolsParams struct {
	Cursor string `json:"cursor,omitempty"`
}

// ListToolsResult is a page of tools. An empty NextCursor means the last
// page.
type ListToolsResult struct {
	Tools      []Tool `json:"tools"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// CallToolParams names a tool and its arguments.
type CallToolParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Meta      *RequestMeta    `json:"_meta,omitempty"`
}

// RequestMeta is the "_meta" of a request. A progress token asks the
// server for notifications/progress about this request.
type RequestMeta struct {
	ProgressToken json.RawMessage `json:"progressToken,omitempty"`
}

// CallToolResult is what a tool produced. IsError marks a tool that ran
// and failed (or refused its arguments): the result is the error message,
// for the model to read, and not a protocol error.
type CallToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// Content is one block of a tool's result. The course's tools return text.
type Content struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// ProgressParams is the body of notifications/progress.
type ProgressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	Total         float64         `json:"total,omitempty"`
	Message       string          `json:"message,omitempty"`
}

// CancelledParams is the body of notifications/cancelled.
type CancelledParams struct {
	RequestID json.RawMessage `json:"requestId"`
	Reason    string          `json:"reason,omitempty"`
}
