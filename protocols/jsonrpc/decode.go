package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// maxNesting is how deeply arrays and objects may nest in a message:
// 10,000 levels, the limit of encoding/json's scanner, which refuses the
// next level. Nothing here recurses past it: the scanner that checks the
// bytes keeps a stack of its own instead of recursing, and refuses
// 100,000 '[' in well under a millisecond; unmarshalling stops at the
// same depth. The limit is named here only so that Decode can say why it
// refused, rather than calling valid but absurdly deep JSON "not JSON".
// (RFC 8259 section 9 lets a parser limit nesting.) A real message nests
// a few levels; MCP tool arguments and A2A data parts a few more.
const maxNesting = 10000

// Decode reads one message. If the bytes are not a valid message, it
// returns instead the error response the specification prescribes, ready
// to send: -32700 for bytes that are not JSON, -32600 for JSON that is not
// a message, with the message's id when it could be read and null
// otherwise. A receiver that gets a broken response (a client) has
// nothing to send back, and reads the reason from the Error.
func Decode(data []byte) (Message, *Response) {
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		// Too deep is a parse error, not an invalid request: the spec's
		// -32600 is for JSON that parsed but "is not a valid Request
		// object", while -32700 is for "an error [that] occurred on the
		// server while parsing the JSON text", which is where the parser
		// gave up.
		if nesting(data) > maxNesting {
			return nil, NewErrorResponse(nullID, Errorf(CodeParseError,
				"parse error: JSON nested deeper than %d levels", maxNesting))
		}
		return nil, NewErrorResponse(nullID, Errorf(CodeParseError, "parse error: not valid JSON"))
	}
	switch data[0] {
	case '[':
		return nil, NewErrorResponse(nullID, Errorf(CodeInvalidRequest,
			"invalid request: batches (JSON arrays of messages) are not supported; send one message at a time"))
	case '{':
	default:
		return nil, NewErrorResponse(nullID, Errorf(CodeInvalidRequest, "invalid request: a message is a JSON object"))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, NewErrorResponse(nullID, Errorf(CodeParseError, "parse error: %v", err))
	}

	// Read the id first, so that every later complaint can be addressed
	// to the request it is about.
	id := nullID
	rawID, hasID := m["id"]
	if hasID {
		if err := id.UnmarshalJSON(rawID); err != nil {
			return nil, invalid(nullID, "%q is not a valid id: %v", rawID, err)
		}
	}
	if v, ok := m["jsonrpc"]; !ok || string(bytes.TrimSpace(v)) != `"2.0"` {
		return nil, invalid(id, `"jsonrpc" must be "2.0"`)
	}

	rawMethod, isRequest := m["method"]
	_, hasResult := m["result"]
	rawError, hasError := m["error"]
	switch {
	case isRequest:
		var method string
		if err := json.Unmarshal(rawMethod, &method); err != nil || method == "" {
			return nil, invalid(id, `"method" must be a non-empty string`)
		}
		if hasID && id.IsNull() {
			return nil, invalid(nullID, `"id" must be a string or an integer, not null; leave it out to send a notification`)
		}
		params := m["params"]
		if len(params) > 0 {
			if p := bytes.TrimSpace(params); p[0] != '{' && p[0] != '[' {
				return nil, invalid(id, `"params" must be an object or an array`)
			}
		}
		req := &Request{Method: method, Params: params}
		if hasID {
			req.ID = id
		}
		return req, nil

	case hasResult || hasError:
		if !hasID {
			return nil, invalid(nullID, `a response must have an "id"`)
		}
		if hasResult == hasError {
			return nil, invalid(id, `a response has exactly one of "result" and "error"`)
		}
		resp := &Response{ID: id, Result: m["result"]}
		if hasError {
			var e Error
			if err := json.Unmarshal(rawError, &e); err != nil || e.Message == "" {
				return nil, invalid(id, `"error" must be an object with an integer "code" and a "message"`)
			}
			resp.Error = &e
		}
		return resp, nil

	default:
		return nil, invalid(id, `a message needs "method" (a request or notification) or "result" or "error" (a response)`)
	}
}

// nesting returns how deeply the arrays and objects in data nest, or
// would if data were valid JSON: brackets inside strings do not count. It
// loops instead of recursing, so any depth costs no stack.
func nesting(data []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range data {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

func invalid(id ID, format string, args ...any) *Response {
	return NewErrorResponse(id, Errorf(CodeInvalidRequest, "invalid request: "+format, args...))
}
