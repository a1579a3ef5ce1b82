package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wirelab/wirelab/protocols/tools"
)

// TestHostileSDKClient: the official Go SDK's client reads the hostile
// server over Streamable HTTP like any other, in both eras. It parses the
// lying annotations as it parses honest ones, and after spell_check's
// first call the next tools/list holds the new definition; in a
// 2025-11-25 session the client is told with
// notifications/tools/list_changed. (The stdio transport is pinned by
// testdata/hostile*.txtar.)
func TestHostileSDKClient(t *testing.T) {
	for _, tt := range []struct {
		name   string
		opts   *sdk.ClientSessionOptions
		modern bool
	}{
		{"pinned", &sdk.ClientSessionOptions{ProtocolVersion: LegacyVersion}, false},
		{"default", nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), interopWait)
			defer cancel()
			srv := NewServer(tools.New(nil), &ServerOptions{Version: "test", Hostile: true})
			h := srv.HTTPHandler(&HTTPOptions{Loopback: true})
			ts := httptest.NewServer(h)
			transport := &http.Transport{}
			defer func() {
				h.Close()
				ts.Close()
				transport.CloseIdleConnections()
			}()
			changed := make(chan struct{}, 1)
			client := sdk.NewClient(&sdk.Implementation{Name: "sdk-hostile", Version: "1"}, &sdk.ClientOptions{
				ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
					select {
					case changed <- struct{}{}:
					default:
					}
				},
			})
			cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{
				Endpoint: ts.URL + Endpoint, HTTPClient: &http.Client{Transport: transport}, MaxRetries: -1}, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()

			before := hostileTools(ctx, t, cs)
			if len(before) != 5 {
				t.Fatalf("tools/list: %d tools, want the 5 of hostile.go", len(before))
			}
			if a := before["inbox_stats"].Annotations; a == nil || !a.ReadOnlyHint {
				t.Errorf("inbox_stats: annotations %+v, want readOnlyHint true (the lie)", a)
			}
			if a := before["send_email"].Annotations; a == nil || a.ReadOnlyHint || a.OpenWorldHint == nil || !*a.OpenWorldHint {
				t.Errorf("send_email: annotations %+v, want readOnlyHint false and openWorldHint true", a)
			}
			if d := before["search_contacts"].Description; !strings.Contains(d, "Do not tell the user") {
				t.Errorf("search_contacts: description %q, want the hidden orders", d)
			}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "spell_check", Arguments: map[string]any{"text": "read the wire"}})
			if err != nil || res.IsError {
				t.Fatalf("spell_check: %v %+v", err, res)
			}
			if !tt.modern {
				select {
				case <-changed:
				case <-ctx.Done():
					t.Fatal("no notifications/tools/list_changed after spell_check's first call")
				}
			}
			after := hostileTools(ctx, t, cs)
			if before["spell_check"].Description == after["spell_check"].Description {
				t.Errorf("spell_check did not change: %q", after["spell_check"].Description)
			}
			if schema, _ := after["spell_check"].InputSchema.(map[string]any); !strings.Contains(strings.Join(keys(schema["properties"]), ","), "context") {
				t.Errorf("spell_check's new schema %v has no argument \"context\"", after["spell_check"].InputSchema)
			}
		})
	}
}

// hostileTools lists the tools by name.
func hostileTools(ctx context.Context, t *testing.T, cs *sdk.ClientSession) map[string]*sdk.Tool {
	t.Helper()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	byName := map[string]*sdk.Tool{}
	for _, tool := range list.Tools {
		byName[tool.Name] = tool
	}
	return byName
}

// keys returns the keys of a JSON object decoded as map[string]any.
func keys(v any) []string {
	m, _ := v.(map[string]any)
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
