package httpjson

import (
	"net/http"

	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The request and response bodies of POST /execute are [stdio.Request] and
// [stdio.Response], byte for byte the messages stdio writes on a line. This
// file adds only what HTTP needs on top: the body of GET /tools, the error
// codes that only HTTP can produce, and the table from error code to
// status code.

// ToolList is the body of GET /tools.
type ToolList struct {
	Tools []tools.Definition `json:"tools"`
}

// Codes for failures that only happen over HTTP. Each travels in the usual
// [stdio.Error] body, so a client reads every failure the same way.
const (
	CodeNotFound             = "not_found"              // no such path
	CodeMethodNotAllowed     = "method_not_allowed"     // the path exists; the method does not
	CodeUnsupportedMediaType = "unsupported_media_type" // the body is not declared as JSON
	CodeUnauthorized         = "unauthorized"           // no bearer token, or not a known one
	CodeForbiddenOrigin      = "forbidden_origin"       // a web page from another site made the call
	CodeMisdirectedRequest   = "misdirected_request"    // the Host header names some other server
	CodeRequestTimeout       = "request_timeout"        // the body did not arrive before the server's read deadline
)

// StatusFor is the status code a response carries for an error code: the
// status table of this protocol in one place. The package documentation
// lays it out and says why tool_failed is 200. The reason phrases on the
// wire are Go's: RFC 9110 renamed 413 "Content Too Large" and 422
// "Unprocessable Content", and clients ignore the phrase anyway (RFC 9112
// section 4: "A client SHOULD ignore the reason-phrase content").
func StatusFor(code string) int {
	switch code {
	case string(tools.CodeToolFailed):
		return http.StatusOK
	case stdio.CodeParseError, stdio.CodeInvalidRequest, string(tools.CodeIncompatibleVersion):
		return http.StatusBadRequest
	case CodeUnauthorized:
		return http.StatusUnauthorized
	case string(tools.CodeForbidden), CodeForbiddenOrigin:
		return http.StatusForbidden
	case string(tools.CodeUnknownTool), CodeNotFound:
		return http.StatusNotFound
	case CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case stdio.CodeTooLarge:
		return http.StatusRequestEntityTooLarge
	case CodeUnsupportedMediaType:
		return http.StatusUnsupportedMediaType
	case CodeMisdirectedRequest:
		return http.StatusMisdirectedRequest
	case CodeRequestTimeout:
		return http.StatusRequestTimeout
	case string(tools.CodeInvalidArguments):
		// RFC 9110 section 15.5.21: "the server understands the content
		// type of the request content ... and the syntax of the request
		// content is correct, but it was unable to process the contained
		// instructions." Well-formed JSON naming a real tool, with
		// arguments its schema refuses.
		return http.StatusUnprocessableEntity
	case stdio.CodeCanceled:
		// Only sent when the call was stopped with the client still
		// there; a client that has gone gets nothing.
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}
