// Command mcp-server is your MCP server (revision 2025-11-25) over stdio,
// written by hand with encoding/json. README.md says what it must do;
// check your work with
//
//	wirelab grade mcp-server
//
// README.ru.md — то же, что README.md, по-русски.
//
// The grader starts this program and exchanges JSON-RPC 2.0 messages with
// it, one per line: requests on its stdin, your answers on its stdout.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// message is what the client sends: a request, such as
//
//	{"jsonrpc":"2.0","id":1,"method":"initialize","params":{...}}
//
// or a notification, which has no id and gets no answer:
//
//	{"jsonrpc":"2.0","method":"notifications/initialized"}
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// response answers one request: the same id, and exactly one of result
// and error.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error, for requests that are wrong in
// themselves. A tool that fails is not one: see README.md.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func main() {
	// Logs go to stderr: stdout carries protocol messages only.
	fmt.Fprintln(os.Stderr, "mcp-server: starting")

	scanner := bufio.NewScanner(os.Stdin)
	for scanner.Scan() {
		resp := handle(scanner.Bytes())
		if resp == nil {
			continue
		}
		b, err := json.Marshal(resp)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcp-server:", err)
			os.Exit(1)
		}
		os.Stdout.Write(append(b, '\n'))
	}
}

// handle answers one line, or returns nil when there is nothing to send.
//
// Step 1: answer initialize (version negotiation is in README.md), then
// ping, tools/list and tools/call. Step 2: refuse requests that come
// before initialize. Step 3: answer the lines that are not JSON, which
// this code skips, with the parse error JSON-RPC prescribes.
func handle(line []byte) *response {
	var msg message
	if err := json.Unmarshal(line, &msg); err != nil {
		return nil
	}
	if len(msg.ID) == 0 {
		return nil // a notification: never answered
	}
	return &response{
		JSONRPC: "2.0",
		ID:      msg.ID,
		Error:   &rpcError{Code: -32601, Message: fmt.Sprintf("method %q not found: this server does nothing yet", msg.Method)},
	}
}
