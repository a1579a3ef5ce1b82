package stdio

import (
	"strings"
	"testing"
)

// TestParseRequestErrors: a request that is not one is refused with a
// sentence in the wire's terms (which byte, which key, which JSON type),
// never with encoding/json's wording about Go structs and scanner states.
func TestParseRequestErrors(t *testing.T) {
	tests := []struct {
		name, line string
		code, msg  string
	}{
		{"unquoted key", `{name:word_count}`, CodeParseError,
			`request is not valid JSON: unexpected 'n' at byte 2, where a key, a string in double quotes, should start`},
		{"cut short", `{"name":"word_count",`, CodeParseError,
			`request is not valid JSON: it ends after 21 bytes, before the value is complete`},
		{"two values", `{"name":"word_count"}}`, CodeParseError,
			`request is not valid JSON: unexpected '}' at byte 22, after the end of the value; send one value per request`},
		{"quote in a rune", `{'name':1}`, CodeParseError,
			`request is not valid JSON: unexpected '\'' at byte 2, where a key, a string in double quotes, should start`},
		{"bare word", `not json`, CodeParseError,
			`request is not valid JSON: unexpected 'o' at byte 2, inside what began as null: JSON's only bare words are true, false and null, and text goes in double quotes`},
		{"unquoted value", `{"name":tru}`, CodeParseError,
			`request is not valid JSON: unexpected '}' at byte 12, inside what began as true: JSON's only bare words are true, false and null, and text goes in double quotes`},
		{"minus alone", `{"id":-}`, CodeParseError,
			`request is not valid JSON: unexpected '}' at byte 8, inside a number`},
		{"decimal point", `{"id":1.}`, CodeParseError,
			`request is not valid JSON: unexpected '}' at byte 9, after a number's decimal point, where a digit should come`},
		{"exponent", `{"id":1e}`, CodeParseError,
			`request is not valid JSON: unexpected '}' at byte 9, in a number's exponent, where a digit should come`},
		{"too deep", strings.Repeat("[", 100000), CodeParseError,
			`request is not valid JSON: arrays and objects are nested more than 10000 deep (at byte 10001)`},
		{"name is a number", `{"id":1,"name":5}`, CodeInvalidRequest,
			`request key "name" must be a string, not a number`},
		{"version is a number", `{"name":"word_count","version":1.0}`, CodeInvalidRequest,
			`request key "version" must be a string, not a number`},
		{"name is an object", `{"name":{}}`, CodeInvalidRequest,
			`request key "name" must be a string, not an object`},
		{"null", `null`, CodeInvalidRequest,
			`request is null, not an object; a request looks like {"name":"word_count","args":{"text":"hi"}}`},
		{"array", ` [1]`, CodeInvalidRequest,
			`request is an array, not an object; a request looks like {"name":"word_count","args":{"text":"hi"}}`},
		{"string", `"word_count"`, CodeInvalidRequest,
			`request is a string, not an object; a request looks like {"name":"word_count","args":{"text":"hi"}}`},
		{"boolean", `true`, CodeInvalidRequest,
			`request is a boolean, not an object; a request looks like {"name":"word_count","args":{"text":"hi"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, e := ParseRequest([]byte(tt.line))
			if e == nil {
				t.Fatalf("ParseRequest(%.40q) accepted it", tt.line)
			}
			if e.Code != tt.code || e.Message != tt.msg {
				t.Errorf("ParseRequest(%.40q) = %s: %s\nwant %s: %s", tt.line, e.Code, e.Message, tt.code, tt.msg)
			}
		})
	}
}
