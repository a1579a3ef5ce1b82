package cli

import (
	"net"
	"strings"
	"testing"
)

// TestPortInUseNamesTheFlag: a server or a tap whose port is taken says
// so in one line naming the flag that command has for its address, and
// a tap that never started prints no summary of a recording.
func TestPortInUseNamesTheFlag(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	taken := ln.Addr().String()
	for _, tt := range []struct {
		args []string
		flag string
	}{
		{[]string{"server", "http", "--addr", taken}, "--addr"},
		{[]string{"server", "mcp", "--http", taken}, "--http"},
		{[]string{"server", "mcp", "--http", "127.0.0.1:0", "--auth", "builtin", "--auth-addr", taken}, "--auth-addr"},
		{[]string{"server", "a2a", "--addr", taken}, "--addr"},
		{[]string{"tap", "--listen", taken, "--upstream", "http://127.0.0.1:1/mcp"}, "--listen"},
		{[]string{"tap", "--grpc", "--listen", taken, "--upstream", "127.0.0.1:1"}, "--listen"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			want := "wirelab: cannot listen on " + taken + ": the port is already in use (is another wirelab running?); " +
				"choose another with " + tt.flag + ", or " + tt.flag + " 127.0.0.1:0 for any free port\n"
			// Lines before it are servers that did start: --auth builtin
			// listens for MCP first.
			if code != exitFailure || stdout != "" || !strings.HasSuffix(stderr, want) {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1 and stderr ending in:\n%s", code, stdout, stderr, want)
			}
			if strings.Contains(stderr, "wirelab tap:") {
				t.Errorf("a summary of a tap that never started:\n%s", stderr)
			}
		})
	}
}

func TestAnyPort(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8021": "127.0.0.1:0",
		"0.0.0.0:8080":   "0.0.0.0:0",
		":8080":          ":0",
		"[::1]:8021":     "[::1]:0",
		"nonsense":       "127.0.0.1:0",
	} {
		if got := anyPort(addr); got != want {
			t.Errorf("anyPort(%q) = %q, want %q", addr, got, want)
		}
	}
}

// TestListenNamesTheMCPEndpoint: an MCP server over HTTP names its
// endpoint, path and all, on the line after the one scripts wait for,
// which stays as it was; other servers print that one line only.
func TestListenNamesTheMCPEndpoint(t *testing.T) {
	for _, tt := range []struct {
		proto, scheme string
		endpoint      bool
	}{
		{"mcp", "http://", true},
		{"mcp-auth", "http://", true},
		{"http", "http://", false},
		{"grpc", "", false},
	} {
		var stderr strings.Builder
		ln, _, err := listen("127.0.0.1:0", "", tt.proto, tt.scheme, &stderr)
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		want := "wirelab: " + tt.proto + " server listening on " + tt.scheme + addr + "\n"
		if tt.endpoint {
			want += "wirelab: " + tt.proto + " endpoint: http://" + addr + "/mcp\n"
		}
		if stderr.String() != want {
			t.Errorf("%s: stderr %q, want %q", tt.proto, stderr.String(), want)
		}
	}
}
