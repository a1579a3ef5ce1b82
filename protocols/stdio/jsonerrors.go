package stdio

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// encoding/json reports a broken request in its own words: "invalid
// character 'n' looking for beginning of object key string", "cannot
// unmarshal number into Go struct field Request.name of type string".
// Those name the parser's states and the server's Go types, which a
// client's author cannot see. The functions here say the same things in
// the words of the wire: which byte, which key, which JSON type.

// maxNesting is how deeply encoding/json lets arrays and objects nest
// (10,000 levels); its scanner refuses the next level without recursing,
// so a line of 100,000 '[' costs nothing but an error.
const maxNesting = 10000

// syntaxProblem says where and why bytes are not JSON. err comes from
// json.Unmarshal of bytes that json.Valid refused.
func syntaxProblem(err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err.Error()
	}
	msg := se.Error()
	if msg == "unexpected end of JSON input" {
		return fmt.Sprintf("it ends after %d bytes, before the value is complete", se.Offset)
	}
	// The rest read "invalid character 'x' CONTEXT", where 'x' is quoted
	// as a Go rune literal ('\'' included).
	rest, ok := strings.CutPrefix(msg, "invalid character ")
	end := strings.Index(rest[min(1, len(rest)):], "' ")
	if !ok || end < 0 {
		return fmt.Sprintf("%s (at byte %d)", msg, se.Offset)
	}
	char, context := rest[:end+2], rest[end+3:]
	if context == "exceeded max depth" {
		return fmt.Sprintf("arrays and objects are nested more than %d deep (at byte %d)", maxNesting, se.Offset)
	}
	if word, ok := strings.CutPrefix(context, "in literal "); ok {
		// "in literal null (expecting 'u')": a bare word that began like
		// null, true or false. Text in JSON is a string.
		word, _, _ = strings.Cut(word, " ")
		return fmt.Sprintf("unexpected %s at byte %d, inside what began as %s: JSON's only bare words are true, false and null, and text goes in double quotes", char, se.Offset, word)
	}
	where := context
	for _, c := range []struct{ context, where string }{
		{"in numeric literal", "inside a number"},
		{"after decimal point in numeric literal", "after a number's decimal point, where a digit should come"},
		{"in exponent of numeric literal", "in a number's exponent, where a digit should come"},
		{"looking for beginning of object key string", "where a key, a string in double quotes, should start"},
		{"looking for beginning of value", "where a value should start"},
		{"after object key:value pair", `after a key and its value, where "," or "}" should come`},
		{"after object key", `after a key, where ":" should come`},
		{"after array element", `after an array element, where "," or "]" should come`},
		{"after top-level value", "after the end of the value; send one value per request"},
		{"in string literal", "inside a string, where control characters must be escaped"},
		{"in string escape code", `in a string's escape; valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX`},
	} {
		if context == c.context {
			where = c.where
			break
		}
	}
	return fmt.Sprintf("unexpected %s at byte %d, %s", char, se.Offset, where)
}

// typeProblem says which key of a request holds a value of the wrong
// type. err comes from json.Unmarshal into a Request. The wording is the
// one the JSON-RPC servers use for their params (jsonrpc.ParamsProblem):
// the key, the JSON type it must be, and what came instead.
func typeProblem(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return "request has a key of the wrong type: " + err.Error()
	}
	return "request key " + jsonrpc.ParamsProblem(te)
}
