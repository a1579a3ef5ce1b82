package wire

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestParseGRPCFrame reads the method, the metadata, the deadline in
// gRPC's notation, and the JSON of a gRPC frame.
func TestParseGRPCFrame(t *testing.T) {
	call, err := parseGRPCFrame("tools.v1.ToolServer/ExecuteTool\r\nAuthorization: Bearer reader\ngrpc-timeout: 250m\n{\"toolName\":\n \"word_count\"}\n")
	if err != nil {
		t.Fatal(err)
	}
	if call.method != "tools.v1.ToolServer/ExecuteTool" || call.timeout != 250*time.Millisecond || call.body != "{\"toolName\":\n \"word_count\"}" {
		t.Errorf("got method %q, timeout %v, body %q", call.method, call.timeout, call.body)
	}
	if diff := cmp.Diff(map[string][]string{"authorization": {"Bearer reader"}}, map[string][]string(call.md)); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
	plain, err := parseGRPCFrame("tools.v1.ToolServer/ListTools\n{}")
	if err != nil || plain.timeout != exchangeTimeout || len(plain.md) != 0 || plain.body != "{}" {
		t.Errorf("a frame without headers: %+v, %v", plain, err)
	}
	for _, v := range []string{"1", "5s", "123456789m", "-1S", "1x"} {
		if _, err := parseGRPCFrame("a.B/C\ngrpc-timeout: " + v + "\n{}"); err == nil || !strings.Contains(err.Error(), "grpc-timeout") {
			t.Errorf("grpc-timeout %q: err %v, want a refusal that explains the notation", v, err)
		}
	}
	for v, want := range map[string]time.Duration{"1H": time.Hour, "2M": 2 * time.Minute, "3S": 3 * time.Second, "4m": 4 * time.Millisecond, "5u": 5 * time.Microsecond, "6n": 6} {
		if got, err := parseGRPCTimeout(v); err != nil || got != want {
			t.Errorf("parseGRPCTimeout(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
}
