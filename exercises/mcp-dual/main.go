// Command mcp-dual is your MCP server over stdio for both eras of the
// protocol. As it stands it speaks only the 2025-11-25 era, which opens a
// session with initialize; README.md says what the 2026-07-28 era adds.
// README.ru.md — то же, что README.md, по-русски.
// Check your work with
//
//	wirelab grade mcp-dual
//
// The grader starts this program and exchanges JSON-RPC 2.0 messages with
// it, one per line: requests on its stdin, your answers on its stdout.
package main

import (
	"bufio"
	"bytes"
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

// The revisions this server speaks. modernVersion is served per request;
// the legacy ones open with initialize, and their messages are the same
// in all three.
const (
	modernVersion = "2026-07-28"
	legacyVersion = "2025-11-25" // the newest legacy revision
)

// isLegacy reports whether version is a revision that opens with
// initialize.
func isLegacy(version string) bool {
	switch version {
	case legacyVersion, "2025-06-18", "2025-03-26":
		return true
	}
	return false
}

// supportedVersions lists every revision the server speaks, newest
// first, as server/discover and the -32022 error report them.
func supportedVersions() []string {
	return []string{modernVersion, legacyVersion, "2025-06-18", "2025-03-26"}
}

// The _meta keys every 2026-07-28 request must carry. (Its result
// carries io.modelcontextprotocol/serverInfo: see resultMeta.)
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// serverInfo is who this server says it is, in both eras.
func serverInfo() implementation {
	return implementation{Name: "mcp-dual", Version: "1.0.0"}
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
	Data    any    `json:"data,omitempty"`
}

// JSON-RPC 2.0's error codes, and the one 2026-07-28 adds here.
const (
	codeParseError     = -32700 // not JSON
	codeInvalidRequest = -32600 // JSON, but not a valid request (now)
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602 // params of the wrong shape, an unknown tool, a missing _meta field
	codeInternalError  = -32603 // a bug in the server
	// codeUnsupportedVersion: the request names a revision the server
	// does not serve; data lists the ones it does.
	codeUnsupportedVersion = -32022
)

func main() {
	// stdout carries only protocol messages; logs go to stderr.
	logger := log.New(os.Stderr, "mcp-dual: ", 0)
	s := &server{log: logger}
	if err := s.serve(os.Stdin, os.Stdout); err != nil {
		logger.Fatal(err)
	}
}

// server serves one client process. It handles one message at a time,
// on one goroutine, so its state needs no lock.
type server struct {
	log *log.Logger
	// initialized is the 2025-11-25 session's state: initialize has been
	// answered. It is the only state the server keeps.
	initialized bool
}

// serve reads messages from in until it ends, and writes the answers to
// out.
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
		return errorResponse(null, &rpcError{Code: codeParseError, Message: "parse error: not valid JSON"})
	}
	var msg message
	if err := json.Unmarshal(line, &msg); err != nil || msg.JSONRPC != "2.0" || msg.Method == "" {
		id := msg.ID
		if len(id) == 0 {
			id = null
		}
		return errorResponse(id, &rpcError{Code: codeInvalidRequest, Message: `invalid request: a message is {"jsonrpc":"2.0","id":...,"method":"...","params":{...}}`})
	}
	// A notification is never answered, in either era: this comes before
	// the era is even looked at.
	if len(msg.ID) == 0 {
		s.log.Printf("notification %s", msg.Method)
		return nil
	}
	// Step 1: tell the eras apart. A request whose params._meta has
	// io.modelcontextprotocol/protocolVersion or
	// io.modelcontextprotocol/clientCapabilities is a 2026-07-28 request,
	// and so is server/discover: send those to serveModern. Everything
	// else stays with serveLegacy.
	result, rerr := s.serveLegacy(msg.Method, msg.Params)
	if rerr != nil {
		s.log.Printf("%s: error %d: %s", msg.Method, rerr.Code, rerr.Message)
		return errorResponse(msg.ID, rerr)
	}
	return &response{JSONRPC: "2.0", ID: msg.ID, Result: result}
}

func errorResponse(id json.RawMessage, e *rpcError) *response {
	return &response{JSONRPC: "2.0", ID: id, Error: e}
}

// requestMeta is the part of params._meta that a 2026-07-28 request
// must carry, kept raw so that a value of the wrong type is still seen
// to be there.
type requestMeta struct {
	ProtocolVersion    json.RawMessage `json:"io.modelcontextprotocol/protocolVersion"`
	ClientCapabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
}

// serveModern answers one 2026-07-28 request on its own: everything it
// needs is in the request, and nothing of it may be kept for the next
// one.
//
// Step 2: check meta before anything else. A missing protocolVersion or
// clientCapabilities is -32602 (invalid params); a revision other than
// 2026-07-28 is -32022, whose data is an unsupportedVersion.
//
// Step 3: answer server/discover, tools/list and tools/call, each result
// with complete() in it. initialize, ping and logging/setLevel are not
// methods of this revision: -32601.
func serveModern(method string, params json.RawMessage, meta requestMeta) (any, *rpcError) {
	return nil, &rpcError{Code: codeMethodNotFound, Message: fmt.Sprintf("method %q not found: this server does not speak 2026-07-28 yet", method)}
}

// complete is what a finished 2026-07-28 result carries beside its own
// members.
func complete() resultFields {
	return resultFields{ResultType: "complete", Meta: &resultMeta{ServerInfo: serverInfo()}}
}

// serveLegacy answers one request of the 2025-11-25 session.
func (s *server) serveLegacy(method string, params json.RawMessage) (any, *rpcError) {
	// The session starts with initialize; until then, only ping. The
	// spec leaves the error code open; -32600 says the request is not
	// valid now.
	if !s.initialized && method != "initialize" && method != "ping" {
		return nil, &rpcError{Code: codeInvalidRequest, Message: fmt.Sprintf("invalid request: %s before initialize; a session starts with initialize, and a 2026-07-28 request carries params._meta", method)}
	}
	switch method {
	case "initialize":
		return s.initialize(params)
	case "ping":
		return struct{}{}, nil // the answer is an empty object
	case "tools/list":
		return listTools(resultFields{}), nil
	case "tools/call":
		return callTool(params, resultFields{})
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: fmt.Sprintf("method %q not found", method)}
}

// unsupportedVersion is the data of a -32022 error.
type unsupportedVersion struct {
	Supported []string `json:"supported"`
	Requested string   `json:"requested"`
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// resultFields are what every 2026-07-28 result carries beside its own
// members: resultType, which it must have ("complete" for a finished
// request), and in _meta who answered, which it should have since no
// handshake said so. A 2025-11-25 result leaves them empty, and
// omitempty keeps them off its wire.
type resultFields struct {
	ResultType string      `json:"resultType,omitempty"`
	Meta       *resultMeta `json:"_meta,omitempty"`
}

type resultMeta struct {
	ServerInfo implementation `json:"io.modelcontextprotocol/serverInfo"`
}

// discoverResult answers server/discover: what initialize's result told
// a legacy client, for a client that wants to know before its first
// request.
type discoverResult struct {
	SupportedVersions []string     `json:"supportedVersions"`
	Capabilities      capabilities `json:"capabilities"`
	resultFields
}

// initializeParams is the part of initialize's params this server reads.
type initializeParams struct {
	ProtocolVersion string `json:"protocolVersion"`
}

// initializeResult tells a legacy client which revision the session
// speaks, what the server offers, and who it is.
type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    capabilities   `json:"capabilities"`
	ServerInfo      implementation `json:"serverInfo"`
}

// capabilities lists the features the server offers: only tools.
type capabilities struct {
	Tools struct{} `json:"tools"`
}

type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

func (s *server) initialize(params json.RawMessage) (any, *rpcError) {
	if s.initialized {
		return nil, &rpcError{Code: codeInvalidRequest, Message: "invalid request: the session is already initialized"}
	}
	var p initializeParams
	if err := json.Unmarshal(params, &p); err != nil || p.ProtocolVersion == "" {
		return nil, &rpcError{Code: codeInvalidParams, Message: "invalid params: initialize needs {protocolVersion, capabilities, clientInfo}"}
	}
	// Negotiation: echo the client's revision if it is a legacy one this
	// server speaks; otherwise answer with the newest legacy one. A
	// session cannot run on 2026-07-28, which has no sessions.
	version := p.ProtocolVersion
	if !isLegacy(version) {
		version = legacyVersion
	}
	s.initialized = true
	return initializeResult{ProtocolVersion: version, ServerInfo: serverInfo()}, nil
}

// tool describes a tool to the client.
type tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

type toolList struct {
	Tools []tool `json:"tools"`
	resultFields
}

func listTools(fields resultFields) toolList {
	return toolList{resultFields: fields, Tools: []tool{{
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
// not: its output as text and as structuredContent.
type callResult struct {
	Content           []content `json:"content"`
	StructuredContent any       `json:"structuredContent,omitempty"`
	IsError           bool      `json:"isError,omitempty"`
	resultFields
}

// content is a content block; this server only writes text.
type content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func callTool(params json.RawMessage, fields resultFields) (any, *rpcError) {
	var p callParams
	if err := json.Unmarshal(params, &p); err != nil || p.Name == "" {
		return nil, &rpcError{Code: codeInvalidParams, Message: `invalid params: tools/call needs {"name": string, "arguments": object}`}
	}
	if p.Name != "word_count" {
		return nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("invalid params: unknown tool %q; this server has: word_count", p.Name)}
	}
	out, err := wordCount(p.Arguments)
	if err != nil {
		// The tool refused its arguments: a tool error, inside a result,
		// which is as complete as any other.
		return callResult{Content: []content{{Type: "text", Text: err.Error()}}, IsError: true, resultFields: fields}, nil
	}
	text, err := json.Marshal(out)
	if err != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "internal error: " + err.Error()}
	}
	return callResult{Content: []content{{Type: "text", Text: string(text)}}, StructuredContent: out, resultFields: fields}, nil
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
