package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Version is the value of every message's "jsonrpc" member.
const Version = "2.0"

// ID is a request id exactly as it was sent: the JSON text of a string or
// an integer. The zero ID means "no id" (a notification). IDs are
// comparable, so they can key a map of requests waiting for an answer.
type ID struct {
	raw string
}

// StringID returns the id "s".
func StringID(s string) ID {
	b, _ := json.Marshal(s) // a string always encodes
	return ID{raw: string(b)}
}

// IntID returns the id n.
func IntID(n int64) ID { return ID{raw: strconv.FormatInt(n, 10)} }

// nullID is the id of an error answering a message whose id could not be read.
var nullID = ID{raw: "null"}

// IsZero reports whether the id is absent.
func (id ID) IsZero() bool { return id.raw == "" }

// IsNull reports whether the id is JSON null.
func (id ID) IsNull() bool { return id.raw == "null" }

// String returns the id as JSON text: 7, "7" or null.
func (id ID) String() string {
	if id.raw == "" {
		return "null"
	}
	return id.raw
}

// MarshalJSON writes the id back exactly as it arrived.
func (id ID) MarshalJSON() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalJSON keeps the id's text, after checking it is a string, an
// integer or null.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if !validID(b) && string(b) != "null" {
		return errors.New("an id must be a string or an integer")
	}
	id.raw = string(b)
	return nil
}

// validID reports whether b is a string or an integer: MCP allows no
// other id, and a fraction or exponent would not survive a round trip
// through most languages' integers.
func validID(b []byte) bool {
	if len(b) > 0 && b[0] == '"' {
		var s string
		return json.Unmarshal(b, &s) == nil
	}
	_, err := strconv.ParseInt(string(b), 10, 64)
	return err == nil
}

// Message is a [*Request] or a [*Response].
type Message interface {
	isMessage()
}

// Request is a request, or a notification when ID is zero.
type Request struct {
	ID     ID
	Method string
	Params json.RawMessage // an object or an array; nil when absent
}

// Response answers the request with the same ID. Exactly one of Result
// and Error is set.
type Response struct {
	ID     ID
	Result json.RawMessage
	Error  *Error
}

func (*Request) isMessage()  {}
func (*Response) isMessage() {}

// IsNotification reports whether the request has no id and so gets no
// answer.
func (r *Request) IsNotification() bool { return r.ID.IsZero() }

// wireMessage is every member a message can have, in the order this
// package writes them.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *ID             `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// MarshalJSON writes the request; a notification has no "id" member.
func (r *Request) MarshalJSON() ([]byte, error) {
	w := wireMessage{JSONRPC: Version, Method: r.Method, Params: r.Params}
	if !r.ID.IsZero() {
		w.ID = &r.ID
	}
	return json.Marshal(w)
}

// MarshalJSON writes the response. Its "id" is always present (null when
// the request's id could not be read), and so is "result" on success,
// even when the result is empty.
func (r *Response) MarshalJSON() ([]byte, error) {
	id := r.ID
	if id.IsZero() {
		id = nullID
	}
	w := wireMessage{JSONRPC: Version, ID: &id, Error: r.Error}
	if r.Error == nil {
		w.Result = r.Result
		if len(w.Result) == 0 {
			w.Result = json.RawMessage("null")
		}
	}
	return json.Marshal(w)
}

// NewResponse answers id with result encoded as JSON.
func NewResponse(id ID, result any) (*Response, error) {
	b, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	return &Response{ID: id, Result: b}, nil
}

// NewErrorResponse answers id with an error.
func NewErrorResponse(id ID, err *Error) *Response {
	return &Response{ID: id, Error: err}
}
