// Command schema-versions is your stdio tool server whose tool,
// word_count, has versions. README.md says what it must do; check your
// work with
//
//	wirelab grade schema-versions
//
// README.ru.md — то же, что README.md, по-русски.
//
// The grader starts this program, writes requests to its stdin, one JSON
// object per line, and reads your answers from its stdout, one per line,
// as in the stdio-server exercise. This starter already serves word_count
// 1.0 and ignores versions: the steps below add version 2.0 and the rules
// that decide which version a call gets.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// request is one line from the client, such as
//
//	{"id":1,"name":"word_count","version":"1.0","args":{"text":"read the wire"}}
//
// TODO (step 1): add the optional "version", a string. A request without
// one leaves it "".
type request struct {
	ID   json.RawMessage `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// response is one line to the client: the request's id and exactly one
// of result and error.
type response struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Result any             `json:"result,omitempty"`
	Error  *callError      `json:"error,omitempty"`
}

// callError is a failed call: a code for programs, a message for people.
//
// TODO (step 4): an incompatible_version error also lists the versions
// served, as "versions": ["2.0","1.1","1.0"], so that the caller can pick
// one. Add that field, left out of other errors.
type callError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// resultV1 is word_count's result in versions 1.0 and 1.1.
type resultV1 struct {
	Words int `json:"words"`
	Chars int `json:"chars"`
}

// TODO (step 2): version 2.0, the current one, answers
// {"words":3,"characters":13,"lines":1}: "chars" is renamed
// "characters", and "lines" is new (README.md says how to count them).
// Declare its result type.

func main() {
	// Logs go to stderr: stdout is for answers only.
	fmt.Fprintln(os.Stderr, "schema-versions: starting")

	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 64*1024), 1<<20) // lines up to 1 MiB
	for scanner.Scan() {
		if strings.TrimSpace(scanner.Text()) == "" {
			continue
		}
		b, err := json.Marshal(handle(scanner.Bytes()))
		if err != nil {
			fmt.Fprintln(os.Stderr, "schema-versions:", err)
			os.Exit(1)
		}
		os.Stdout.Write(append(b, '\n'))
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "schema-versions: reading requests:", err)
		os.Exit(1)
	}
}

// handle answers one request line. For now it answers every call in the
// 1.0 shape, whatever version it asks for.
//
// TODO (step 2): decide which version the call gets, after the tool is
// known: no version means the current one, "2.0". Answer 2.0 with its
// new result.
//
// TODO (step 3): go on answering "1.1" and "1.0", the compatible
// versions, with resultV1: their callers read "chars".
//
// TODO (step 4): refuse any other version with an incompatible_version
// error that lists the versions served, the current one first. Compare
// versions as whole strings: "1" is not "1.0", and "1.2" was never
// released, even though it sorts between them.
func handle(line []byte) response {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		if !json.Valid(line) {
			return response{Error: &callError{Code: "parse_error", Message: "the line is not valid JSON"}}
		}
		return response{ID: req.ID, Error: &callError{Code: "invalid_request", Message: `a request is an object like {"name":"word_count","version":"2.0","args":{"text":"hi"}}`}}
	}
	if req.Name == "" {
		return response{ID: req.ID, Error: &callError{Code: "invalid_request", Message: `the request has no "name": say which tool to call`}}
	}
	if req.Name != "word_count" {
		return response{ID: req.ID, Error: &callError{Code: "unknown_tool", Message: fmt.Sprintf("unknown tool %q; this server has: word_count", req.Name)}}
	}
	var in struct {
		Text *string `json:"text"` // a pointer tells a missing text from ""
	}
	if len(req.Args) == 0 || json.Unmarshal(req.Args, &in) != nil || in.Text == nil {
		return response{ID: req.ID, Error: &callError{Code: "invalid_arguments", Message: `word_count needs args {"text": string}`}}
	}
	text := *in.Text
	return response{ID: req.ID, Result: resultV1{Words: len(strings.Fields(text)), Chars: utf8.RuneCountInString(text)}}
}
