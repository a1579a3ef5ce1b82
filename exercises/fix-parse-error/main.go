// Command fix-parse-error is a small JSON-RPC 2.0 server over stdio: one
// message per line on stdin, one answer per line on stdout, logs on
// stderr. It knows one method, ping.
//
// It has one bug, the one README.md describes: find it and fix it.
// README.ru.md — то же, что README.md, по-русски.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log"
	"os"
)

// maxLine is the longest line read: 1 MiB, as MCP servers commonly take.
const maxLine = 1 << 20

// JSON-RPC's error codes (section 5.1).
const (
	codeParseError     = -32700 // not JSON
	codeInvalidRequest = -32600 // JSON, but not a request
	codeMethodNotFound = -32601
)

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// response has no omitempty on ID: an answer always carries the id,
// and null when the request's could not be read.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

var null = json.RawMessage("null")

func main() {
	logger := log.New(os.Stderr, "fix-parse-error: ", 0)
	in := bufio.NewReaderSize(os.Stdin, 64*1024)
	out := json.NewEncoder(os.Stdout) // Encode writes one line per message
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > maxLine {
			logger.Fatalf("a line of %d bytes, over the limit of %d", len(line), maxLine)
		}
		if len(line) > 0 {
			if resp, ok := answer(line, logger); ok {
				if err := out.Encode(resp); err != nil {
					logger.Fatal(err)
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return // the client is done
		}
		if err != nil {
			logger.Fatal(err)
		}
	}
}

// answer returns the answer to one line, or false for a line that gets
// none: a notification, or a blank line.
func answer(line []byte, logger *log.Logger) (response, bool) {
	if len(bytes.TrimSpace(line)) == 0 {
		return response{}, false
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			// Not JSON: nothing to answer, so skip the line.
			logger.Printf("skipping a line that is not JSON: %v", err)
			return response{}, false
		}
		return response{JSONRPC: "2.0", ID: null, Error: &rpcError{Code: codeInvalidRequest, Message: "not a request: " + err.Error()}}, true
	}
	if req.ID == nil {
		return response{}, false // a notification: never answered
	}
	if req.JSONRPC != "2.0" || req.Method == "" {
		return response{JSONRPC: "2.0", ID: req.ID, Error: &rpcError{Code: codeInvalidRequest, Message: `a request needs "jsonrpc":"2.0" and a method`}}, true
	}
	if req.Method != "ping" {
		return response{JSONRPC: "2.0", ID: req.ID, Error: &rpcError{Code: codeMethodNotFound, Message: "unknown method " + req.Method}}, true
	}
	return response{JSONRPC: "2.0", ID: req.ID, Result: struct{}{}}, true
}
