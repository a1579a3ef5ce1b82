package jsonrpc_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// TestDecode feeds raw messages to Decode and writes back what a receiver
// would send: the message re-encoded, or the error response.
func TestDecode(t *testing.T) {
	for _, tt := range []struct {
		name, in, out string
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"id zero is an id", `{"jsonrpc":"2.0","id":0,"method":"ping"}`, `{"jsonrpc":"2.0","id":0,"method":"ping"}`},
		{"string id kept", `{"jsonrpc":"2.0","id":"7","method":"ping"}`, `{"jsonrpc":"2.0","id":"7","method":"ping"}`},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"params kept", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`},
		{"result", `{"jsonrpc":"2.0","id":"a","result":{}}`, `{"jsonrpc":"2.0","id":"a","result":{}}`},
		{"error", `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`},
		{"error about an unreadable message", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`},

		{"not JSON", `{"jsonrpc":"2.0",`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: not valid JSON"}}`},
		{"empty", ``, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: not valid JSON"}}`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches (JSON arrays of messages) are not supported; send one message at a time"}}`},
		{"not an object", `"ping"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a message is a JSON object"}}`},
		{"no jsonrpc", `{"id":4,"method":"ping"}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":"x","method":"ping"}`, `{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be a string or an integer, not null; leave it out to send a notification"}}`},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"1.5\" is not a valid id: an id must be a string or an integer"}}`},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"{}\" is not a valid id: an id must be a string or an integer"}}`},
		{"method not a string", `{"jsonrpc":"2.0","id":5,"method":5}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"invalid request: \"method\" must be a non-empty string"}}`},
		{"params a string", `{"jsonrpc":"2.0","id":6,"method":"ping","params":"x"}`, `{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"message":"invalid request: \"params\" must be an object or an array"}}`},
		{"result and error", `{"jsonrpc":"2.0","id":7,"result":1,"error":{"code":1,"message":"m"}}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: a response has exactly one of \"result\" and \"error\""}}`},
		{"response without id", `{"jsonrpc":"2.0","result":1}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a response must have an \"id\""}}`},
		{"neither", `{"jsonrpc":"2.0","id":8}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"invalid request: a message needs \"method\" (a request or notification) or \"result\" or \"error\" (a response)"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg, reject := jsonrpc.Decode([]byte(tt.in))
			var out any = reject
			if reject == nil {
				out = msg
			}
			if (msg == nil) == (reject == nil) {
				t.Fatalf("Decode returned message %v and rejection %v; want exactly one", msg, reject)
			}
			b, err := json.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.out, string(b)); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestNotification(t *testing.T) {
	msg, _ := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`))
	if r, ok := msg.(*jsonrpc.Request); !ok || !r.IsNotification() {
		t.Errorf("got %#v, want a notification", msg)
	}
	msg, _ = jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":0,"method":"ping"}`))
	if r, ok := msg.(*jsonrpc.Request); !ok || r.IsNotification() {
		t.Errorf("id 0: got %#v, want a request", msg)
	}
}

// TestIDsAreExact: 1 and "1" are different requests, so they must be
// different map keys, and each must come back as it went.
func TestIDsAreExact(t *testing.T) {
	pending := map[jsonrpc.ID]string{
		jsonrpc.IntID(1):      "number",
		jsonrpc.StringID("1"): "string",
	}
	for _, in := range []string{`1`, `"1"`} {
		msg, reject := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":` + in + `,"result":{}}`))
		if reject != nil {
			t.Fatal(reject.Error)
		}
		id := msg.(*jsonrpc.Response).ID
		if id.String() != in {
			t.Errorf("id %s came back as %s", in, id)
		}
		want := map[string]string{`1`: "number", `"1"`: "string"}[in]
		if pending[id] != want {
			t.Errorf("id %s matched %q, want %q", in, pending[id], want)
		}
	}
}

func TestResponseEncoding(t *testing.T) {
	r, err := jsonrpc.NewResponse(jsonrpc.IntID(9), map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		resp *jsonrpc.Response
		want string
	}{
		{r, `{"jsonrpc":"2.0","id":9,"result":{}}`},
		{&jsonrpc.Response{ID: jsonrpc.StringID("x")}, `{"jsonrpc":"2.0","id":"x","result":null}`},
		{jsonrpc.NewErrorResponse(jsonrpc.IntID(1), jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "method %q not found", "nope").WithData(map[string]string{"method": "nope"})),
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method \"nope\" not found","data":{"method":"nope"}}}`},
	} {
		b, err := json.Marshal(tt.resp)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("got  %s\nwant %s", b, tt.want)
		}
		if strings.Contains(string(b), "\n") {
			t.Errorf("an encoded message must fit on one line: %q", b)
		}
	}
}
