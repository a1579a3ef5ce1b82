// Command mcp-client is your MCP client (revision 2025-11-25) over
// Streamable HTTP, written by hand with net/http and encoding/json. It
// calls one tool and prints what the tool said:
//
//	mcp-client --url http://127.0.0.1:8021/mcp word_count text="read the wire"
//
// README.md says what it must do; check your work with
//
//	wirelab grade mcp-client
//
// README.ru.md — то же, что README.md, по-русски.
//
// The grader runs an MCP server, starts this program against it, and
// looks at what it sends, what it prints and how it exits.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// protocolVersion is the revision this client speaks.
const protocolVersion = "2025-11-25"

func main() {
	url := flag.String("url", "http://127.0.0.1:8021/mcp", "the server's MCP endpoint")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mcp-client [--url URL] TOOL [KEY=VALUE | KEY:=JSON]...")
		os.Exit(2)
	}
	args, err := toolArgs(flag.Args()[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-client:", err)
		os.Exit(2)
	}
	os.Exit(run(&session{url: *url}, flag.Arg(0), args))
}

// toolArgs reads the tool's arguments from the words after its name:
// KEY=VALUE gives a string, KEY:=JSON any JSON value (limit:=3).
func toolArgs(words []string) (map[string]json.RawMessage, error) {
	args := map[string]json.RawMessage{}
	for _, w := range words {
		key, value, ok := strings.Cut(w, "=")
		switch k, isJSON := strings.CutSuffix(key, ":"); {
		case !ok || k == "":
			return nil, fmt.Errorf("argument %q is not KEY=VALUE or KEY:=JSON", w)
		case isJSON && !json.Valid([]byte(value)):
			return nil, fmt.Errorf("argument %q: %s is not JSON", w, value)
		case isJSON:
			args[k] = json.RawMessage(value)
		default:
			args[key], _ = json.Marshal(value) // a string always encodes
		}
	}
	return args, nil
}

// request is a JSON-RPC request, such as
//
//	{"jsonrpc":"2.0","id":1,"method":"initialize","params":{...}}
//
// A notification is a request without an id. ID is a pointer so that
// "no id" is nil, which omitempty leaves out, and every number is an id:
// 0 is as good an id as 1, so it cannot also mean "none".
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int   `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// session is what the client keeps from one message to the next.
//
// Step 2: keep the Mcp-Session-Id header of the answer to initialize
// here, and the protocol version that initialize agreed on.
type session struct {
	url string
}

// post sends one message to the server: every message is a POST to the
// same URL, its body one JSON-RPC message.
//
// Step 1: a POST must also say which answers it takes, with an Accept
// header (README.md). Step 3: after initialize, it carries two more
// headers, Mcp-Session-Id and MCP-Protocol-Version.
func (s *session) post(msg request) (*http.Response, error) {
	body, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return http.DefaultClient.Do(req)
}

// run is the whole session. It returns the exit status: 0 when the tool
// worked, 1 when it failed (its result says "isError": true), 2 for
// anything else. So far it sends initialize, shows the answer on stderr,
// and stops.
//
// Step 2: read the answer to initialize, a JSON-RPC response with a
// "result" or an "error".
//
// Step 3: send notifications/initialized, which the server answers with
// 202 and no body.
//
// Step 4: send tools/call with {"name": tool, "arguments": args}, and
// print the "text" of each text block of its result.content on stdout,
// one per line.
//
// Step 5: print the text of a result with "isError": true on stderr, and
// exit with 1. A JSON-RPC error exits with 2.
//
// Step 6: a server may answer with an SSE stream (Content-Type:
// text/event-stream) instead of JSON. README.md shows how to read one.
func run(s *session, tool string, args map[string]json.RawMessage) int {
	initialize := request{JSONRPC: "2.0", ID: new(1), Method: "initialize", Params: map[string]any{
		"protocolVersion": protocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "mcp-client", "version": "0.1.0"},
	}}
	resp, err := s.post(initialize)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-client: initialize:", err)
		return 2
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	// stdout is for the tool's output only; this goes on stderr.
	fmt.Fprintf(os.Stderr, "mcp-client: initialize: HTTP %s, Content-Type %q, Mcp-Session-Id %q\n%s\n",
		resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("Mcp-Session-Id"), body)
	return 0
}
