// Command mcp-sdk-server is an MCP server built with the official Go SDK,
// github.com/modelcontextprotocol/go-sdk, talking over stdio: the
// client's messages on stdin, the server's on stdout, logs on stderr.
//
// It starts and completes the handshake, but offers no tool yet. Add
// word_count with mcp.AddTool: README.md says what it takes and returns.
// README.ru.md — то же, что README.md, по-русски.
package main

import (
	"context"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	// stdout carries the protocol, so the log goes to stderr.
	logger := log.New(os.Stderr, "mcp-sdk-server: ", 0)

	server := mcp.NewServer(&mcp.Implementation{Name: "word-counter", Version: "1.0.0"}, nil)

	// TODO: register word_count: mcp.AddTool(server, &mcp.Tool{...}, handler),
	// with a handler that takes an input struct and returns an output one.

	// Run serves until the client closes stdin.
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		logger.Fatal(err)
	}
}
