// This copy of the mcp-server solution tags its schemas in snake_case,
// "input_schema", a key MCP clients do not know.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"unicode/utf8"
)

// maxLine is the longest message read: 1 MiB, where bufio.Scanner's
// default would stop at 64 KiB and end the session.
const maxLine = 1 << 20

// latestVersion is the newest protocol revision this server speaks.
const latestVersion = "2025-11-25"

// supported reports whether this server speaks a protocol revision. The
// messages it uses are the same in all three.
func supported(version string) bool {
	switch version {
	case "2025-11-25", "2025-06-18", "2025-03-26":
		return true
	}
	return false
}

// message is what the client sends: a request (with an id, answered) or
// a notification (without one, never answered).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// response answers one request: the request's id, and exactly one of
// result and error.
type response struct {
	JSONRPC string `json:"jsonrpc"`
	// ID is echoed byte for byte. It is null only when the request's id
	// could not be read, as for a line that is not JSON.
	ID     json.RawMessage `json:"id"`
	Result any             `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error: a protocol error, not a tool's failure.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// JSON-RPC 2.0's error codes.
const (
	codeParseError     = -32700 // not JSON
	codeInvalidRequest = -32600 // JSON, but not a valid request
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602 // params of the wrong shape, or an unknown tool
	codeInternalError  = -32603 // a bug in the server
)

func main() {
	// stdout carries only protocol messages; logs go to stderr, which
	// the host shows or discards.
	logger := log.New(os.Stderr, "mcp-server: ", 0)
	s := &server{log: logger}
	if err := s.serve(os.Stdin, os.Stdout); err != nil {
		logger.Fatal(err)
	}
}

// server is one session: a stdio server process serves exactly one
// client, from initialize to the end of its stdin. It handles one
// message at a time, on one goroutine, so its state needs no lock.
type server struct {
	log         *log.Logger
	initialized bool // initialize has been answered
}

// serve reads messages from in until it ends, which is how the client
// closes the session, and writes the answers to out.
func (s *server) serve(in io.Reader, out io.Writer) error {
	scanner := bufio.NewScanner(in)
	scanner.Buffer(make([]byte, 64*1024), maxLine)
	for scanner.Scan() {
		line := scanner.Bytes()
		if strings.TrimSpace(string(line)) == "" {
			continue
		}
		resp := s.handle(line)
		if resp == nil {
			continue // a notification: nothing to send
		}
		b, err := json.Marshal(resp)
		if err != nil {
			return fmt.Errorf("encoding a response: %w", err)
		}
		// One message per line: json.Marshal never writes a newline
		// inside a message, so the one after it ends the message.
		if _, err := out.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("writing a response: %w", err)
		}
	}
	if err := scanner.Err(); err != nil {
		return fmt.Errorf("reading messages: %w", err)
	}
	return nil
}

// handle answers one line, or returns nil for a notification.
func (s *server) handle(line []byte) *response {
	null := json.RawMessage("null")
	if !json.Valid(line) {
		// JSON-RPC: "If there was an error in detecting the id in the
		// Request object (e.g. Parse error/Invalid Request), it MUST be
		// Null."
		return errorResponse(null, codeParseError, "parse error: not valid JSON")
	}
	var msg message
	if err := json.Unmarshal(line, &msg); err != nil || msg.JSONRPC != "2.0" || msg.Method == "" {
		id := msg.ID
		if len(id) == 0 {
			id = null
		}
		return errorResponse(id, codeInvalidRequest, `invalid request: a message is {"jsonrpc":"2.0","id":...,"method":"...","params":{...}}`)
	}
	if len(msg.ID) == 0 {
		// A notification. notifications/initialized ends the handshake;
		// the others this server does not act on. None is answered, not
		// even with an error.
		s.log.Printf("notification %s", msg.Method)
		return nil
	}
	result, rerr := s.call(msg.Method, msg.Params)
	if rerr != nil {
		s.log.Printf("%s: error %d: %s", msg.Method, rerr.Code, rerr.Message)
		return &response{JSONRPC: "2.0", ID: msg.ID, Error: rerr}
	}
	return &response{JSONRPC: "2.0", ID: msg.ID, Result: result}
}

func errorResponse(id json.RawMessage, code int, message string) *response {
	return &response{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: message}}
}

// call runs one request's method.
func (s *server) call(method string, params json.RawMessage) (any, *rpcError) {
	// The session starts with initialize; until then, only ping. The
	// spec leaves the error code open; -32600 says the request is not
	// valid now.
	if !s.initialized && method != "initialize" && method != "ping" {
		return nil, &rpcError{codeInvalidRequest, fmt.Sprintf("invalid request: %s before initialize; the session starts with initialize", method)}
	}
	switch method {
	case "initialize":
		return s.initialize(params)
	case "ping":
		return struct{}{}, nil // the answer is an empty object
	case "tools/list":
		return listTools(), nil
	case "tools/call":
		return callTool(params)
	default:
		return nil, &rpcError{codeMethodNotFound, fmt.Sprintf("method %q not found", method)}
	}
}

// initializeParams is the part of initialize's params this server reads.
type initializeParams struct {
	ProtocolVersion string `json:"protocolVersion"`
}

// initializeResult tells the client which revision the session speaks,
// what the server offers, and who it is. The keys are camelCase, as
// everywhere in MCP.
type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    capabilities   `json:"capabilities"`
	ServerInfo      implementation `json:"serverInfo"`
}

// capabilities lists the features the server offers: only tools. The
// empty object says "tools, and no tools/list_changed notifications".
type capabilities struct {
	Tools struct{} `json:"tools"`
}

type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

func (s *server) initialize(params json.RawMessage) (any, *rpcError) {
	if s.initialized {
		return nil, &rpcError{codeInvalidRequest, "invalid request: the session is already initialized"}
	}
	var p initializeParams
	if err := json.Unmarshal(params, &p); err != nil || p.ProtocolVersion == "" {
		return nil, &rpcError{codeInvalidParams, "invalid params: initialize needs {protocolVersion, capabilities, clientInfo}"}
	}
	// Negotiation: echo the client's revision if this server speaks it;
	// otherwise answer with the latest it does speak. That is not an
	// error: the client decides whether to go on.
	version := p.ProtocolVersion
	if !supported(version) {
		version = latestVersion
	}
	s.initialized = true
	return initializeResult{
		ProtocolVersion: version,
		ServerInfo:      implementation{Name: "mcp-server", Version: "1.0.0"},
	}, nil
}

// tool describes a tool to the client. The model reads the description
// and the input schema to decide how to call it.
type tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
}

func listTools() any {
	return map[string][]tool{"tools": {{
		Name:         "word_count",
		Description:  "Count the words (whitespace-separated) and characters (Unicode code points) in a text.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"The text to count."}},"required":["text"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"words":{"type":"integer","minimum":0},"chars":{"type":"integer","minimum":0}},"required":["words","chars"],"additionalProperties":false}`),
	}}}
}

// callParams are tools/call's params.
type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// callResult is what a tool call returns, whether the tool succeeded or
// not. A tool with an output schema gives its output twice: as text, for
// clients and models that read text, and as structuredContent, JSON that
// matches the schema.
type callResult struct {
	Content           []content `json:"content"`
	StructuredContent any       `json:"structuredContent,omitempty"`
	IsError           bool      `json:"isError,omitempty"`
}

// content is a content block; this server only writes text.
type content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func callTool(params json.RawMessage) (any, *rpcError) {
	var p callParams
	if err := json.Unmarshal(params, &p); err != nil || p.Name == "" {
		return nil, &rpcError{codeInvalidParams, `invalid params: tools/call needs {"name": string, "arguments": object}`}
	}
	if p.Name != "word_count" {
		// Calling a tool that does not exist is the client's mistake,
		// so it is a protocol error.
		return nil, &rpcError{codeInvalidParams, fmt.Sprintf("invalid params: unknown tool %q; this server has: word_count", p.Name)}
	}
	out, err := wordCount(p.Arguments)
	if err != nil {
		// The tool refused its arguments: a tool error, inside a normal
		// result, so that the model sees why and can call again.
		return callResult{Content: []content{{Type: "text", Text: err.Error()}}, IsError: true}, nil
	}
	text, err := json.Marshal(out)
	if err != nil {
		return nil, &rpcError{codeInternalError, "internal error: " + err.Error()}
	}
	return callResult{Content: []content{{Type: "text", Text: string(text)}}, StructuredContent: out}, nil
}

// wordCountResult is word_count's output, as its output schema says.
type wordCountResult struct {
	Words int `json:"words"`
	Chars int `json:"chars"`
}

// wordCount counts the words of arguments.text and its characters
// (Unicode code points, not bytes).
func wordCount(arguments json.RawMessage) (wordCountResult, error) {
	var in struct {
		Text *string `json:"text"` // a pointer tells a missing text from an empty one
	}
	if len(arguments) == 0 || json.Unmarshal(arguments, &in) != nil || in.Text == nil {
		return wordCountResult{}, errors.New(`word_count: invalid arguments: "text" is required and must be a string`)
	}
	return wordCountResult{
		Words: len(strings.Fields(*in.Text)),
		Chars: utf8.RuneCountInString(*in.Text),
	}, nil
}
