package mcp

import (
	"encoding/json"
	"slices"
)

// Two eras of MCP share this package. The specification calls them
// legacy and modern:
//
//   - legacy (2025-11-25 and earlier): a session opens with initialize,
//     which agrees on a revision and on capabilities once; later requests
//     rely on it. Over HTTP the session has an id (Mcp-Session-Id).
//   - modern (2026-07-28): no session. Every request carries its own
//     revision, client name and client capabilities in params._meta, and
//     the server answers each request on its own. server/discover tells a
//     client what the server speaks.
//
// A server that speaks both (this one) picks the era from what the client
// sends: initialize starts a legacy session; a request whose _meta names a
// revision is served statelessly.
const (
	// ModernVersion is the stateless revision.
	ModernVersion = "2026-07-28"
	// LegacyVersion is the newest revision with sessions.
	LegacyVersion = "2025-11-25"
	// LatestVersion is the newest revision this package speaks.
	LatestVersion = ModernVersion
)

// legacyVersions are the revisions that open with initialize, newest first.
var legacyVersions = []string{LegacyVersion, "2025-06-18", "2025-03-26"}

// SupportedVersions lists every revision this package speaks, newest first,
// as server/discover and UnsupportedProtocolVersion report them.
func SupportedVersions() []string { return append([]string{ModernVersion}, legacyVersions...) }

// isLegacy reports whether v is a revision that opens with initialize.
func isLegacy(v string) bool { return slices.Contains(legacyVersions, v) }

// The _meta keys of the modern era. A request carries the first three;
// a result may carry serverInfo.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// Error codes the modern era defines, in the range -32020 to -32099 that
// the specification keeps for itself. Each is answered with HTTP 400.
const (
	// CodeHeaderMismatch: an HTTP header (MCP-Protocol-Version, Mcp-Method,
	// Mcp-Name, Mcp-Param-*) is missing or disagrees with the body.
	CodeHeaderMismatch = -32020
	// CodeMissingClientCapability: the request needs a capability the
	// client did not declare in its _meta; data.requiredCapabilities says
	// which.
	CodeMissingClientCapability = -32021
	// CodeUnsupportedVersion: the request names a revision the server does
	// not speak; data.supported lists those it does.
	CodeUnsupportedVersion = -32022
)

// Result types: every modern result says which it is.
const (
	ResultComplete      = "complete"
	ResultInputRequired = "input_required"
)

// ResultFields are the members every modern result may carry beside its
// own. A legacy result leaves them empty, so they do not appear on its
// wire. TTLMs and CacheScope are set on the results a client may cache
// (lists, resources/read, server/discover).
type ResultFields struct {
	ResultType string          `json:"resultType,omitempty"`
	TTLMs      *int64          `json:"ttlMs,omitempty"`
	CacheScope string          `json:"cacheScope,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// resultFields returns the fields themselves, so that code can fill them
// in on any result that embeds ResultFields.
func (f *ResultFields) resultFields() *ResultFields { return f }

// DiscoverResult answers server/discover: the revisions the server speaks,
// what it offers, and who it is (in _meta, serverInfo).
type DiscoverResult struct {
	SupportedVersions []string           `json:"supportedVersions"`
	Capabilities      ServerCapabilities `json:"capabilities"`
	Instructions      string             `json:"instructions,omitempty"`
	ResultFields
}

// InputRequiredResult is a modern server's "not yet": to finish the
// request it needs answers from the client (InputRequests, keyed by names
// the server chose) and it hands back RequestState, opaque to the client,
// which the client echoes when it sends the request again with a new id
// and params.inputResponses holding the answers under the same keys.
type InputRequiredResult struct {
	ResultFields
	InputRequests map[string]InputRequest `json:"inputRequests,omitempty"`
	RequestState  string                  `json:"requestState,omitempty"`
}

// InputRequest is one question inside an InputRequiredResult: what a
// legacy server would have sent as a request of its own
// (elicitation/create, sampling/createMessage, roots/list).
type InputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// UnsupportedVersionData is the data of a CodeUnsupportedVersion error.
type UnsupportedVersionData struct {
	Supported []string `json:"supported"`
	Requested string   `json:"requested"`
}
