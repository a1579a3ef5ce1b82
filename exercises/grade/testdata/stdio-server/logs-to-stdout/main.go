// This copy of the stdio-server solution logs to stdout, the classic
// mistake: its "ready" line is read by the client as an answer.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"unicode/utf8"
)

// maxLine is the longest request line read: 1 MiB. bufio.Scanner's
// default limit is 64 KiB, and a longer line would silently end the loop
// below, which is why the scanner is given a bigger buffer.
const maxLine = 1 << 20

// request is one line from the client. The tags are what put lowercase
// keys on the wire: without them, encoding/json would write "Name" and
// "Args", which a client does not expect.
type request struct {
	// ID is whatever JSON value the client sent, kept as raw bytes so
	// that it goes back exactly as it came: 7 stays 7, "7" stays "7",
	// and a large number is not rounded through a float64.
	ID   json.RawMessage `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// response is one line to the client: the request's id and exactly one
// of result and error. omitempty leaves out the one that is not set, and
// the id of a request that had none.
type response struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Result any             `json:"result,omitempty"`
	Error  *callError      `json:"error,omitempty"`
}

// callError is a failed call, with a code a program can act on and a
// message a person can read.
type callError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// The error codes of the protocol.
const (
	codeParseError       = "parse_error"       // the line is not JSON
	codeInvalidRequest   = "invalid_request"   // JSON, but not a request
	codeUnknownTool      = "unknown_tool"      // no tool has that name
	codeInvalidArguments = "invalid_arguments" // the tool's arguments are wrong
)

func main() {
	// Logs go to stderr: stdout belongs to the protocol, and one stray
	// line there would be read by the client as a (broken) response.
	logger := log.New(os.Stdout, "stdio-server: ", 0)
	logger.Print("ready")
	if err := serve(os.Stdin, os.Stdout, logger); err != nil {
		logger.Fatal(err)
	}
}

// serve answers every request line from in with one line on out, until
// in ends. End of input is how the client says it is done, so it is not
// an error.
func serve(in io.Reader, out io.Writer, logger *log.Logger) error {
	scanner := bufio.NewScanner(in)
	scanner.Buffer(make([]byte, 64*1024), maxLine)
	for scanner.Scan() {
		line := scanner.Bytes()
		if strings.TrimSpace(string(line)) == "" {
			continue // a blank line carries no request
		}
		resp := handle(line)
		if resp.Error != nil {
			logger.Printf("error %s: %s", resp.Error.Code, resp.Error.Message)
		}
		b, err := json.Marshal(resp)
		if err != nil {
			return fmt.Errorf("encoding a response: %w", err)
		}
		// json.Marshal never writes a raw newline, so the newline after
		// it is a safe end of the message.
		if _, err := out.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("writing a response: %w", err)
		}
	}
	// Scan returns false at the end of input, and also on a read error
	// or a line longer than maxLine; only Err tells them apart.
	if err := scanner.Err(); err != nil {
		return fmt.Errorf("reading requests: %w", err)
	}
	return nil
}

// handle answers one request line.
func handle(line []byte) response {
	if !json.Valid(line) {
		// The id is somewhere in the broken bytes, so the answer has none.
		return response{Error: &callError{codeParseError, "the line is not valid JSON"}}
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		// Valid JSON, but not an object with the right types: an array, a
		// string, a name that is a number. Unmarshal still fills in what
		// it can, so the id, if there was one, is answered.
		return response{ID: req.ID, Error: &callError{codeInvalidRequest, `a request is an object like {"name":"word_count","args":{"text":"hi"}}`}}
	}
	if req.Name == "" {
		return response{ID: req.ID, Error: &callError{codeInvalidRequest, `the request has no "name": say which tool to call`}}
	}
	switch req.Name {
	case "word_count":
		result, err := wordCount(req.Args)
		if err != nil {
			return response{ID: req.ID, Error: err}
		}
		return response{ID: req.ID, Result: result}
	default:
		return response{ID: req.ID, Error: &callError{codeUnknownTool, fmt.Sprintf("unknown tool %q; this server has: word_count", req.Name)}}
	}
}

// wordCountResult is what word_count returns.
type wordCountResult struct {
	Words int `json:"words"`
	Chars int `json:"chars"`
}

// wordCount counts the words of args.text (runs of non-space, as
// strings.Fields splits them) and its characters (Unicode code points:
// "привет" is 6 characters, though 12 bytes).
func wordCount(args json.RawMessage) (wordCountResult, *callError) {
	// A pointer tells a missing "text" (nil) from an empty one.
	var in struct {
		Text *string `json:"text"`
	}
	if len(args) == 0 || json.Unmarshal(args, &in) != nil || in.Text == nil {
		return wordCountResult{}, &callError{codeInvalidArguments, `word_count needs args {"text": string}`}
	}
	return wordCountResult{
		Words: len(strings.Fields(*in.Text)),
		Chars: utf8.RuneCountInString(*in.Text),
	}, nil
}
