package httpjson_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"

	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// A server and a client: the client posts a stdio request to /execute and
// gets the result back, or a *stdio.Error that says which kind of failure
// it was.
func Example() {
	srv := httptest.NewServer(httpjson.NewServer(tools.New(nil), nil))
	defer srv.Close()
	c := httpjson.NewClient(srv.URL, nil)
	ctx := context.Background()

	result, err := c.Call(ctx, stdio.Request{Name: "word_count", Args: json.RawMessage(`{"text":"read the wire"}`)})
	fmt.Println(string(result), err)

	_, err = c.Call(ctx, stdio.Request{Name: "weather", Args: json.RawMessage(`{"city":"Lisbon"}`)})
	var e *stdio.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, "tool error:", e.ToolError(), "status:", httpjson.StatusFor(e.Code))
	}

	_, err = c.Call(ctx, stdio.Request{Name: "word_cont"})
	if errors.As(err, &e) {
		fmt.Println(e.Code, "tool error:", e.ToolError(), "status:", httpjson.StatusFor(e.Code))
	}
	// Output:
	// {"words":3,"chars":13} <nil>
	// tool_failed tool error: true status: 200
	// unknown_tool tool error: false status: 404
}
