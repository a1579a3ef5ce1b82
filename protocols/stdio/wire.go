package stdio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/tools"
)

// Request is one line a client writes: which tool, with which arguments,
// at which version. The keys are lowercase on the wire; see [ParseRequest].
type Request struct {
	// ID is echoed byte for byte in the response, so a client that has
	// several calls in flight can tell the answers apart. Any JSON value
	// works; the server never interprets it.
	ID      json.RawMessage `json:"id,omitempty"`
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args,omitempty"`
	Version string          `json:"version,omitempty"`
}

// Response is one line the server writes: the request's id, and exactly
// one of a result or an error.
type Response struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error is a failed call as it travels on the wire. Code is one of the
// [tools.Code] values or one of this package's Code constants.
type Error struct {
	Code     string             `json:"code"`
	Message  string             `json:"message"`
	Fields   []tools.FieldError `json:"fields,omitempty"`   // invalid_arguments
	Versions []string           `json:"versions,omitempty"` // incompatible_version
	Scope    string             `json:"scope,omitempty"`    // forbidden
}

// Codes for failures that happen before a request reaches the catalogue.
const (
	CodeParseError     = "parse_error"     // the line is not JSON
	CodeInvalidRequest = "invalid_request" // JSON, but not a request: not an object, no name, wrong keys
	CodeTooLarge       = "too_large"       // the line is longer than the server reads
	CodeCanceled       = "canceled"        // the server stopped before the tool finished
	CodeInternal       = "internal"        // a bug in the server
)

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// ToolError reports whether the tool refused its arguments or ran and
// failed, as opposed to the request being wrong. Clients exit 1 for tool
// errors and 2 for everything else.
func (e *Error) ToolError() bool {
	return e.Code == string(tools.CodeInvalidArguments) || e.Code == string(tools.CodeToolFailed)
}

// ErrorFrom turns an error from [tools.Catalogue.Call] into its wire form.
func ErrorFrom(err error) *Error {
	var te *tools.Error
	switch {
	case errors.As(err, &te):
		return &Error{Code: string(te.Code), Message: te.Message, Fields: te.Fields, Versions: te.Versions, Scope: string(te.Scope)}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: CodeCanceled, Message: "the call was stopped before the tool finished: " + err.Error()}
	default:
		return &Error{Code: CodeInternal, Message: err.Error()}
	}
}

// requestKeys are the only keys a request may have. encoding/json matches
// keys case-insensitively, so a client built from Go structs without JSON
// tags (sending "Name", "Args") would slip through unnoticed; the server
// names the mistake instead.
func requestKeys() []string { return []string{"id", "name", "args", "version"} }

// ParseRequest decodes one request (a line on stdio, a body over HTTP) strictly: it must be a JSON object
// whose keys are among id, name, args and version, spelled in lowercase,
// with a non-empty name. Its errors say what is wrong in the request's
// own terms (which key, which type), not in encoding/json's, which talks
// of Go structs and of its scanner's states.
func ParseRequest(line []byte) (Request, *Error) {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v) // only to say where the JSON breaks
		return Request{}, &Error{Code: CodeParseError, Message: "request is not valid JSON: " + syntaxProblem(err)}
	}
	var fields map[string]json.RawMessage
	// null decodes into a nil map without an error, so it is caught here
	// too, rather than later as a request with no name.
	if err := json.Unmarshal(line, &fields); err != nil || fields == nil {
		return Request{}, &Error{Code: CodeInvalidRequest, Message: fmt.Sprintf(
			`request is %s, not an object; a request looks like {"name":"word_count","args":{"text":"hi"}}`, jsonrpc.ValueKind(line))}
	}
	var unknown []string
	for k := range fields {
		if !contains(requestKeys(), k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		noun := "key"
		if len(unknown) > 1 {
			noun = "keys"
		}
		return Request{ID: fields["id"]}, &Error{Code: CodeInvalidRequest, Message: fmt.Sprintf(
			"unknown %s %s; a request has only the lowercase keys %s", noun, quoteAll(unknown), strings.Join(requestKeys(), ", "))}
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		return Request{ID: fields["id"]}, &Error{Code: CodeInvalidRequest, Message: typeProblem(err)}
	}
	if req.Name == "" {
		return req, &Error{Code: CodeInvalidRequest, Message: `request has no "name": say which tool to call`}
	}
	return req, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
