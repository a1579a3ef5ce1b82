package mcp

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/wirelab/wirelab/protocols/tools"
)

// TestServeStdioStopsWithContext: a session whose client has gone quiet
// (stdin open, nothing written) still ends when its context does.
func TestServeStdioStopsWithContext(t *testing.T) {
	in, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	// Ends when cancel below stops ServeStdio.
	go func() { done <- NewServer(tools.New(nil), nil).ServeStdio(ctx, in, io.Discard) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("ServeStdio returned %v, want context.Canceled", err)
	}
}
