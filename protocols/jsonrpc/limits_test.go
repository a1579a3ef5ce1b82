package jsonrpc_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// TestDecodeNesting checks where Decode stops reading deep JSON: a
// message may nest 10,000 levels, counting its own object, and one level
// more is a parse error that says why, whatever the brackets are.
func TestDecodeNesting(t *testing.T) {
	// request wraps params nested depth-1 levels deep in a request, so
	// that the message as a whole nests depth levels.
	request := func(depth int) string {
		params := strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1)
		return `{"jsonrpc":"2.0","id":1,"method":"echo","params":` + params + `}`
	}
	const tooDeep = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: JSON nested deeper than 10000 levels"}}`
	for _, tt := range []struct {
		name, in string
		want     string // the error response, or "" for a message
	}{
		{"100,000 [", strings.Repeat("[", 100_000), tooDeep},
		{"100,000 {", strings.Repeat(`{"a":`, 100_000), tooDeep},
		{"10,000 levels", request(10_000), ""},
		{"10,001 levels", request(10_001), tooDeep},
		// Brackets inside a string are text, not nesting.
		{"brackets in a string", `{"jsonrpc":"2.0","id":"[\"[","method":"echo","params":{"s":"` + strings.Repeat("[", 20_000) + `\"{"}}`, ""},
		{"brackets in a string, not JSON", `{"jsonrpc":"2.0","id":1,"method":"echo","params":{"s":"` + strings.Repeat("[", 20_000) + `"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: not valid JSON"}}`},
		{"not JSON, and shallow", `{"jsonrpc":"2.0","id":1,"method":"echo","params":[[[`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: not valid JSON"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg, reject := jsonrpc.Decode([]byte(tt.in))
			if tt.want == "" {
				if reject != nil {
					t.Fatalf("refused: %v", reject.Error)
				}
				if _, ok := msg.(*jsonrpc.Request); !ok {
					t.Fatalf("got %#v, want a request", msg)
				}
				return
			}
			if reject == nil {
				t.Fatalf("accepted %T; want %s", msg, tt.want)
			}
			b, err := json.Marshal(reject)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(b)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
