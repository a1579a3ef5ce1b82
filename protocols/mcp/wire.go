package mcp

import "encoding/json"

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
	// Extensions lists the extensions the client supports, by identifier
	// (modern era; tasks.go).
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
}

// InitializeResult is the server's answer: the revision both will speak,
// and what the server offers.
type InitializeResult struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ServerCapabilities `json:"capabilities"`
	ServerInfo      Implementation     `json:"serverInfo"`
	Instructions    string             `json:"instructions,omitempty"`
}

// ServerCapabilities lists the features the server offers. A client must
// not use a feature that is not listed.
type ServerCapabilities struct {
	Tools       *ToolsCapability     `json:"tools,omitempty"`
	Resources   *ResourcesCapability `json:"resources,omitempty"`
	Prompts     *PromptsCapability   `json:"prompts,omitempty"`
	Logging     *struct{}            `json:"logging,omitempty"`
	Completions *struct{}            `json:"completions,omitempty"`
	// Extensions lists the extensions the server supports, by identifier
	// (modern era; tasks.go).
	Extensions map[string]struct{} `json:"extensions,omitempty"`
}

// ToolsCapability says the server has tools; listChanged would promise a
// notification when the list changes.
type ToolsCapability struct {
	ListChanged bool `json:"listChanged"`
}

// ResourcesCapability says the server has resources. Subscribe promises
// notifications/resources/updated for a subscribed URI.
type ResourcesCapability struct {
	Subscribe   bool `json:"subscribe"`
	ListChanged bool `json:"listChanged"`
}

// PromptsCapability says the server has prompts.
type PromptsCapability struct {
	ListChanged bool `json:"listChanged"`
}

// Tool describes one tool to a client (and, through it, to a model).
type Tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  json.RawMessage  `json:"inputSchema"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
}

// ToolAnnotations are hints about what a tool does, for the host to show
// and to decide what needs the user's confirmation. They are the
// server's word only: "clients MUST consider tool annotations to be
// untrusted unless they come from trusted servers" (2026-07-28, Tools).
// A nil hint means the spec's default: readOnlyHint false,
// destructiveHint true, idempotentHint false, openWorldHint true.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// ListParams asks for a page of a list (tools, resources, templates or
// prompts); Cursor comes from the previous page's NextCursor. A cursor is
// opaque: the client hands it back and never reads it.
type ListParams struct {
	Cursor string `json:"cursor,omitempty"`
}

// ListToolsResult is a page of tools. An empty NextCursor means the last
// page.
type ListToolsResult struct {
	Tools        []Tool `json:"tools"`
	NextCursor   string `json:"nextCursor,omitempty"`
	ResultFields        // modern era only: resultType, caching hints, serverInfo
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
	ResultFields                      // modern era only: resultType, caching hints, serverInfo
}

// Content is one block of a tool's result or a prompt's message. Type says
// which other fields are set: "text" (Text), "image" and "audio" (Data,
// base64, and MimeType), "resource" (Resource, embedded contents).
type Content struct {
	Type     string            `json:"type"`
	Text     string            `json:"text,omitempty"`
	Data     string            `json:"data,omitempty"`
	MimeType string            `json:"mimeType,omitempty"`
	Resource *ResourceContents `json:"resource,omitempty"`
}

// TextContent is a text block.
func TextContent(text string) Content { return Content{Type: "text", Text: text} }

// Resource is one entry of resources/list: something the host can read
// and show to a model, named by a URI.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

// ResourceTemplate is a family of resources: a URI template (RFC 6570),
// such as "wirelab://notes/{id}", that a client fills in to read one.
type ResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

// ResourceContents is what resources/read returns for one URI: Text, or
// Blob (base64) for binary data.
type ResourceContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// ListResourcesResult is a page of resources.
type ListResourcesResult struct {
	Resources    []Resource `json:"resources"`
	NextCursor   string     `json:"nextCursor,omitempty"`
	ResultFields            // modern era only: resultType, caching hints, serverInfo
}

// ListResourceTemplatesResult is a page of resource templates.
type ListResourceTemplatesResult struct {
	ResourceTemplates []ResourceTemplate `json:"resourceTemplates"`
	NextCursor        string             `json:"nextCursor,omitempty"`
	ResultFields                         // modern era only: resultType, caching hints, serverInfo
}

// ResourceParams names one resource: the params of resources/read,
// resources/subscribe and resources/unsubscribe, and of
// notifications/resources/updated.
type ResourceParams struct {
	URI string `json:"uri"`
}

// ReadResourceResult is the contents of a resource.
type ReadResourceResult struct {
	Contents     []ResourceContents `json:"contents"`
	ResultFields                    // modern era only: resultType, caching hints, serverInfo
}

// Prompt is one entry of prompts/list: a message template the user picks,
// with arguments to fill in.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// ListPromptsResult is a page of prompts.
type ListPromptsResult struct {
	Prompts      []Prompt `json:"prompts"`
	NextCursor   string   `json:"nextCursor,omitempty"`
	ResultFields          // modern era only: resultType, caching hints, serverInfo
}

// GetPromptParams picks a prompt and fills in its arguments, all strings.
type GetPromptParams struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
}

// GetPromptResult is the filled-in prompt: messages for the conversation.
type GetPromptResult struct {
	Description  string          `json:"description,omitempty"`
	Messages     []PromptMessage `json:"messages"`
	ResultFields                 // modern era only: resultType, caching hints, serverInfo
}

// PromptMessage is one message of a prompt, from the user or the assistant.
type PromptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// CompleteParams asks for values for one argument of a prompt or a
// resource template, given what the user has typed so far.
type CompleteParams struct {
	Ref struct {
		Type string `json:"type"`           // "ref/prompt" or "ref/resource"
		Name string `json:"name,omitempty"` // ref/prompt
		URI  string `json:"uri,omitempty"`  // ref/resource: the template
	} `json:"ref"`
	Argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
}

// CompleteResult offers values; at most 100 of them, HasMore if there are more.
type CompleteResult struct {
	Completion struct {
		Values  []string `json:"values"`
		Total   int      `json:"total,omitempty"`
		HasMore bool     `json:"hasMore,omitempty"`
	} `json:"completion"`
	ResultFields // modern era only: resultType, caching hints, serverInfo
}

// SetLevelParams is the body of logging/setLevel: the lowest level of log
// message the client wants.
type SetLevelParams struct {
	Level string `json:"level"`
}

// LogParams is the body of notifications/message.
type LogParams struct {
	Level  string `json:"level"`
	Logger string `json:"logger,omitempty"`
	Data   any    `json:"data"`
}

// ElicitParams is the body of elicitation/create, a request from the
// server: ask the user, through the client, to fill in a small form.
type ElicitParams struct {
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

// ElicitResult is the user's answer: Action is "accept" (Content holds
// the form), "decline" or "cancel".
type ElicitResult struct {
	Action  string          `json:"action"`
	Content json.RawMessage `json:"content,omitempty"`
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
