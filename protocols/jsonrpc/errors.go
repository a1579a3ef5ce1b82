package jsonrpc

import (
	"encoding/json"
	"fmt"
)

// The error codes JSON-RPC 2.0 reserves.
const (
	CodeParseError     = -32700 // the bytes are not JSON
	CodeInvalidRequest = -32600 // JSON, but not a valid message
	CodeMethodNotFound = -32601 // no such method
	CodeInvalidParams  = -32602 // the method's params are wrong
	CodeInternalError  = -32603 // the receiver failed while handling it
)

// Error is the error member of a response. It is also a Go error, so a
// handler can return one to choose the code its caller sees.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// Errorf returns an Error with a formatted message.
func Errorf(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithData returns a copy of e carrying data, encoded as JSON. Data that
// cannot be encoded is a programmer error, so it panics.
func (e *Error) WithData(data any) *Error {
	b, err := json.Marshal(data)
	if err != nil {
		panic(fmt.Sprintf("jsonrpc: error data: %v", err))
	}
	c := *e
	c.Data = b
	return &c
}
