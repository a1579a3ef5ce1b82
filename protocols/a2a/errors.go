package a2a

import (
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// The JSON-RPC error codes A2A adds to the five that JSON-RPC defines
// (package jsonrpc). Both revisions use the same numbers; 1.0 added the
// last three.
const (
	CodeTaskNotFound             = -32001 // no task with that id (or it was forgotten)
	CodeTaskNotCancelable        = -32002 // the task is already finished
	CodePushNotSupported         = -32003 // this agent sends no push notifications
	CodeUnsupportedOperation     = -32004 // a valid request this agent will not do
	CodeContentTypeNotSupported  = -32005 // a media type the agent cannot read or write
	CodeInvalidAgentResponse     = -32006 // the agent answered something invalid
	CodeExtendedCardNotAvailable = -32007 // there is no extended agent card
	CodeExtensionRequired        = -32008 // (1.0) the caller must use an extension
	CodeVersionNotSupported      = -32009 // (1.0) the A2A-Version is not spoken here
)

// ErrorDomain is the domain of every A2A error's google.rpc.ErrorInfo.
const ErrorDomain = "a2a-protocol.org"

// errorInfoType is the type URL that marks an entry of a 1.0 error's
// data as a google.rpc.ErrorInfo.
const errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"

// reasons are the ErrorInfo reasons: the code's name in capitals.
var reasons = map[int64]string{
	jsonrpc.CodeParseError:       "PARSE_ERROR",
	jsonrpc.CodeInvalidRequest:   "INVALID_REQUEST",
	jsonrpc.CodeMethodNotFound:   "METHOD_NOT_FOUND",
	jsonrpc.CodeInvalidParams:    "INVALID_PARAMS",
	jsonrpc.CodeInternalError:    "INTERNAL_ERROR",
	CodeTaskNotFound:             "TASK_NOT_FOUND",
	CodeTaskNotCancelable:        "TASK_NOT_CANCELABLE",
	CodePushNotSupported:         "PUSH_NOTIFICATION_NOT_SUPPORTED",
	CodeUnsupportedOperation:     "UNSUPPORTED_OPERATION",
	CodeContentTypeNotSupported:  "CONTENT_TYPE_NOT_SUPPORTED",
	CodeInvalidAgentResponse:     "INVALID_AGENT_RESPONSE",
	CodeExtendedCardNotAvailable: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
	CodeExtensionRequired:        "EXTENSION_SUPPORT_REQUIRED",
	CodeVersionNotSupported:      "VERSION_NOT_SUPPORTED",
}

// rpcError is a protocol error before it is written in one revision's
// form. Meta is the ErrorInfo's metadata in 1.0 (which task, which
// version) and the error's data in 0.3.
type rpcError struct {
	Code    int64
	Message string
	Meta    map[string]string
}

func errorf(code int64, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

func (e *rpcError) Error() string { return e.Message }

// with adds one entry to the error's metadata.
func (e *rpcError) with(key, value string) *rpcError {
	m := map[string]string{}
	for k, v := range e.Meta {
		m[k] = v
	}
	m[key] = value
	return &rpcError{Code: e.Code, Message: e.Message, Meta: m}
}

// wire writes the error as the revision spells it. 1.0 errors carry a
// list in "data", like a google.rpc.Status's details, and the list
// always holds an ErrorInfo whose reason names the error in words:
//
//	"data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
//	          "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org",
//	          "metadata": {"taskId": "..."}}]
//
// 0.3 had no rule for data, so it gets the metadata as an object, if any.
func (e *rpcError) wire(version string) *jsonrpc.Error {
	out := jsonrpc.Errorf(e.Code, "%s", e.Message)
	if version != Version10 {
		if state, ok := e.Meta["state"]; ok {
			// A task's state, named the 0.3 way ("canceled", not
			// "TASK_STATE_CANCELED"), in the text and in the data.
			old := v03State(TaskState(state))
			out.Message = strings.ReplaceAll(out.Message, state, old)
			e = e.with("state", old)
		}
		if len(e.Meta) > 0 {
			out = out.WithData(e.Meta)
		}
		return out
	}
	info := map[string]any{"@type": errorInfoType, "reason": reasons[e.Code], "domain": ErrorDomain}
	if info["reason"] == "" {
		info["reason"] = "INTERNAL_ERROR"
	}
	if len(e.Meta) > 0 {
		info["metadata"] = e.Meta
	}
	return out.WithData([]any{info})
}

// fromJSONRPC takes an error that package jsonrpc wrote (about a message
// it could not read) so that it can be rewritten in the revision's form.
func fromJSONRPC(e *jsonrpc.Error) *rpcError {
	return &rpcError{Code: e.Code, Message: e.Message}
}

// Errors the store's errors become.
func taskNotFound(id string) *rpcError {
	return errorf(CodeTaskNotFound, "task not found: no task has id %q (tasks are kept in memory, and finished ones for %v)", id, TaskTTL).with("taskId", id)
}
