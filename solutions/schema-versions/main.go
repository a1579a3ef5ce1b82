// Command schema-versions is a stdio tool server whose one tool,
// word_count, has two contracts, and a caller says which one it was
// written for:
//
//	-> {"id":1,"name":"word_count","version":"2.0","args":{"text":"read the wire"}}
//	<- {"id":1,"result":{"words":3,"characters":13,"lines":1}}
//	-> {"id":2,"name":"word_count","version":"1.0","args":{"text":"read the wire"}}
//	<- {"id":2,"result":{"words":3,"chars":13}}
//	-> {"id":3,"name":"word_count","version":"1","args":{"text":"read the wire"}}
//	<- {"id":3,"error":{"code":"incompatible_version","message":"...","versions":["2.0","1.1","1.0"]}}
//
// Version 2.0 renamed "chars" to "characters" and added "lines": a caller
// written for 1.x would find no "chars" in a 2.0 answer, so the change got
// a new major version, and the server goes on answering 1.x callers in
// the 1.x shape. A call without a version gets the current one; a version
// the server does not serve is refused with the list of those it does.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxLine is the longest request line read: 1 MiB, over bufio.Scanner's
// default of 64 KiB.
const maxLine = 1 << 20

// current is word_count's current version: the one a call without a
// version gets.
const current = "2.0"

// served lists every version of word_count this server answers, the
// current one first, then the compatible ones: older versions whose
// callers are still served, each in its own shape. 1.1 only reworded
// 1.0's description, so both answer alike.
func served() []string { return []string{current, "1.1", "1.0"} }

// request is one line from the client. Version is optional: "" means the
// client did not ask for one.
type request struct {
	ID      json.RawMessage `json:"id,omitempty"`
	Name    string          `json:"name"`
	Version string          `json:"version,omitempty"`
	Args    json.RawMessage `json:"args"`
}

// response is one line to the client: the request's id and exactly one
// of result and error.
type response struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Result any             `json:"result,omitempty"`
	Error  *callError      `json:"error,omitempty"`
}

// callError is a failed call. Versions is set only for
// incompatible_version: the versions served, so that the caller can pick
// one instead of guessing.
type callError struct {
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Versions []string `json:"versions,omitempty"`
}

// resultV1 is word_count's result in versions 1.0 and 1.1.
type resultV1 struct {
	Words int `json:"words"`
	Chars int `json:"chars"`
}

// resultV2 is word_count's result in version 2.0.
type resultV2 struct {
	Words      int `json:"words"`
	Characters int `json:"characters"`
	Lines      int `json:"lines"`
}

func main() {
	logger := log.New(os.Stderr, "schema-versions: ", 0) // stdout is for answers only
	if err := serve(os.Stdin, os.Stdout); err != nil {
		logger.Fatal(err)
	}
}

// serve answers every request line from in with one line on out, until
// in ends.
func serve(in io.Reader, out io.Writer) error {
	scanner := bufio.NewScanner(in)
	scanner.Buffer(make([]byte, 64*1024), maxLine)
	for scanner.Scan() {
		if strings.TrimSpace(scanner.Text()) == "" {
			continue
		}
		b, err := json.Marshal(handle(scanner.Bytes()))
		if err != nil {
			return fmt.Errorf("encoding a response: %w", err)
		}
		if _, err := out.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("writing a response: %w", err)
		}
	}
	if err := scanner.Err(); err != nil {
		return fmt.Errorf("reading requests: %w", err)
	}
	return nil
}

// handle answers one request line. The checks run from the outside in:
// the tool, then the version, then the arguments, so that a tool that
// does not exist is unknown whatever version was asked for.
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
	version := req.Version
	if version == "" {
		version = current // no version asked: the current one
	}
	// Versions are names, compared as whole strings: "1" is not "1.0",
	// and "1.10" is not "1.1". Parsed as numbers they would be equal.
	if !slices.Contains(served(), version) {
		return response{ID: req.ID, Error: &callError{
			Code:     "incompatible_version",
			Message:  fmt.Sprintf("word_count: version %q is not served; served versions: %s", version, strings.Join(served(), ", ")),
			Versions: served(),
		}}
	}
	var in struct {
		Text *string `json:"text"` // a pointer tells a missing text from ""
	}
	if len(req.Args) == 0 || json.Unmarshal(req.Args, &in) != nil || in.Text == nil {
		return response{ID: req.ID, Error: &callError{Code: "invalid_arguments", Message: `word_count needs args {"text": string}`}}
	}
	text := *in.Text
	words, chars := len(strings.Fields(text)), utf8.RuneCountInString(text)
	// Each version answers in its own shape: a 1.x caller reads "chars".
	if version == current {
		return response{ID: req.ID, Result: resultV2{Words: words, Characters: chars, Lines: lines(text)}}
	}
	return response{ID: req.ID, Result: resultV1{Words: words, Chars: chars}}
}

// lines counts the lines of text: the pieces "\n" separates, where a
// final "\n" ends the last line rather than starting another, and empty
// text has none.
func lines(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}
