package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// ParamsProblem says in the wire's words what json.Unmarshal found wrong
// with a request's params, for the message of a -32602 error. A member of
// the wrong type is named by its path and the JSON types wanted and sent:
//
//	"message.contextId" must be a string, not a number
//
// where encoding/json would say "json: cannot unmarshal number into Go
// struct field Message.message.contextId of type string", naming the
// receiver's Go types, which its caller cannot see. A member inside a
// list is named without its position ("message.parts.text"), since
// encoding/json does not say which element it was. Other errors keep
// their own text, without the "json: " prefix.
func ParamsProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Type != nil {
		field := te.Field
		if field == "" {
			field = "params"
		}
		return fmt.Sprintf("%q must be %s, not %s", field, jsonType(te.Type), jsonValue(te.Value))
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonType names the JSON type that decodes into a Go type.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a string of base64" // encoding/json's form of []byte
		}
		return "an array"
	}
	return "an object"
}

// jsonValue names what encoding/json found instead: it reports "string",
// "number", "bool", "array" or "object", and "number 1.5" for a number
// that does not fit the Go type.
func jsonValue(v string) string {
	switch v {
	case "string", "number":
		return "a " + v
	case "array", "object":
		return "an " + v
	case "bool":
		return "a boolean"
	}
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return n
	}
	return v
}

// ValueKind names the kind of a JSON value by its first byte, as the
// messages above name types: "a string", "an object", "an array", "a
// boolean", "null" or "a number" ("nothing" for no bytes at all). The
// value is not checked beyond that byte.
func ValueKind(v json.RawMessage) string {
	s := strings.TrimSpace(string(v))
	if s == "" {
		return "nothing"
	}
	switch s[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
