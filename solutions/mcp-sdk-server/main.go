// Command mcp-sdk-server is an MCP server built with the official Go SDK,
// github.com/modelcontextprotocol/go-sdk. It offers one tool, word_count,
// and talks over stdio: one JSON-RPC message per line on stdin and
// stdout, logs on stderr.
//
// The SDK writes the wire for it. mcp.AddTool reads the Go types of the
// tool's input and output: their fields, JSON tags and types become the
// inputSchema and outputSchema that tools/list shows, each object closed
// with "additionalProperties": false; the output of a call becomes its
// structuredContent, and the same JSON its text block; an error returned
// by the handler becomes a result with "isError": true.
package main

import (
	"context"
	"errors"
	"log"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countIn is the tool's input. Its JSON tags are the argument names on
// the wire and in the inputSchema: without them the schema would ask for
// "Text", and a client sending "text" would be refused.
type countIn struct {
	Text string `json:"text" jsonschema:"the text to count"`
}

// countOut is the tool's output: the outputSchema, and the
// structuredContent of every call that works.
type countOut struct {
	Words int `json:"words" jsonschema:"whitespace-separated words"`
	Chars int `json:"chars" jsonschema:"characters (Unicode code points)"`
}

// wordCount counts words and characters. It fails for a text with no
// words: the error reaches the client as a tool error, a result with
// "isError": true that the model can read, not as a protocol error.
func wordCount(_ context.Context, _ *mcp.CallToolRequest, in countIn) (*mcp.CallToolResult, countOut, error) {
	words := len(strings.Fields(in.Text))
	if words == 0 {
		return nil, countOut{}, errors.New("the text has no words to count")
	}
	// Characters, not bytes: "привет" is 6 characters and 12 bytes.
	return nil, countOut{Words: words, Chars: utf8.RuneCountInString(in.Text)}, nil
}

func main() {
	// stdout carries the protocol, so the log goes to stderr.
	logger := log.New(os.Stderr, "mcp-sdk-server: ", 0)

	server := mcp.NewServer(&mcp.Implementation{Name: "word-counter", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "word_count",
		Description: "Count the words and characters in a text.",
	}, wordCount)

	// Run serves until the client closes stdin.
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		logger.Fatal(err)
	}
}
