package jsonrpc_test

import (
	"encoding/json"
	"fmt"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// A receiver decodes each message, answers requests, stays silent on
// notifications, and sends Decode's own answer for anything broken.
func ExampleDecode() {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"`,
	} {
		msg, reject := jsonrpc.Decode([]byte(line))
		var answer *jsonrpc.Response
		switch {
		case reject != nil:
			answer = reject
		case msg.(*jsonrpc.Request).IsNotification():
			fmt.Println("(no answer)")
			continue
		default:
			answer, _ = jsonrpc.NewResponse(msg.(*jsonrpc.Request).ID, struct{}{})
		}
		b, _ := json.Marshal(answer)
		fmt.Println(string(b))
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{}}
	// (no answer)
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: not valid JSON"}}
}
