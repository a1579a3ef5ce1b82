package grpctool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/tools"
)

// BenchmarkRoundTrip measures one unary ExecuteTool call over a loopback
// TCP connection that stays open, the way a real client reuses it, with
// and without the bearer-token check. Compare runs with benchstat.
func BenchmarkRoundTrip(b *testing.B) {
	ts, err := tools.ParseTokens([]string{"s3cret"})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name   string
		server *grpctool.ServerOptions
		client *grpctool.ClientOptions
	}{
		{"open", nil, nil},
		{"token", &grpctool.ServerOptions{Tokens: ts}, &grpctool.ClientOptions{Token: "s3cret"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c := client(b, start(b, tools.New(nil), bc.server), bc.client)
			args := json.RawMessage(`{"text":"read the wire"}`)
			ctx := context.Background()
			if _, err := c.Call(ctx, "word_count", args, ""); err != nil { // connect outside the loop
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Call(ctx, "word_count", args, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
