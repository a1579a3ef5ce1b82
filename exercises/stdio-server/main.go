// Command stdio-server is your tool server for wirelab's stdio protocol.
// README.md says what it must do; check your work with
//
//	wirelab grade stdio-server
//
// README.ru.md — то же, что README.md, по-русски.
//
// The grader starts this program, writes requests to its stdin, one JSON
// object per line, and reads your answers from its stdout, one per line.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// request is one line from the client, such as
//
//	{"id":7,"name":"word_count","args":{"text":"read the wire"}}
//
// Step 1: give it fields for id, name and args, with json tags (the keys
// on the wire are lowercase). Keep the id as a json.RawMessage, so that
// it goes back exactly as it came.
type request struct {
}

// response is one line to the client, such as
//
//	{"id":7,"result":{"words":3,"chars":13}}
//	{"id":7,"error":{"code":"unknown_tool","message":"unknown tool \"nope\""}}
//
// It carries the request's id (none if the request had none) and exactly
// one of result and error.
type response struct {
	Error *callError `json:"error,omitempty"`
}

// callError is a failed call: a code for programs, a message for people.
type callError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func main() {
	// Logs go to stderr: stdout is for answers only.
	fmt.Fprintln(os.Stderr, "stdio-server: starting")

	// bufio.Scanner reads one line at a time. By default it stops at a
	// line longer than 64 KiB; one of the grader's stages sends one.
	scanner := bufio.NewScanner(os.Stdin)
	for scanner.Scan() {
		resp := handle(scanner.Bytes())
		b, err := json.Marshal(resp)
		if err != nil {
			fmt.Fprintln(os.Stderr, "stdio-server:", err)
			os.Exit(1)
		}
		// One answer per line: the newline ends the message.
		os.Stdout.Write(append(b, '\n'))
	}
}

// handle answers one request line.
//
// Step 2: decode the line into a request, run word_count, and answer with
// its result. Step 3: answer what can go wrong, as README.md lists: a
// line that is not JSON, a tool that does not exist, arguments that are
// not {"text": string}.
func handle(line []byte) response {
	return response{Error: &callError{Code: "not_implemented", Message: "this server does not answer requests yet"}}
}
