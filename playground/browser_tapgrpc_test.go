package playground

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestBrowserTapGRPC: the gRPC console that follows a gRPC tap (the link
// /taps gives) shows each call the host makes through the tap as it
// shows its own: the call's row and its answer's, the answer with the
// call's status, live; a call in progress is redrawn, never a row more.
func TestBrowserTapGRPC(t *testing.T) {
	b := openBrowser(t)

	upstream, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := grpctool.NewServer(tools.New(nil), nil)
	served := make(chan struct{})
	// Ends when Stop, at the test's end, stops Serve.
	go func() { server.Serve(upstream); close(served) }()
	t.Cleanup(func() { server.Stop(); <-served })

	rec := tap.NewRecorder(nil)
	rec.Add(tap.Event{Kind: tap.KindStart, Format: tap.Format, Upstream: "grpc://" + upstream.Addr().String()})
	relay, err := tap.NewGRPC(upstream.Addr().String(), rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	relayed := make(chan struct{})
	// Ends when cancel, at the test's end, stops Serve.
	go func() { relay.Serve(ctx, ln); close(relayed) }()
	t.Cleanup(func() { cancel(); <-relayed })
	pub, err := wire.Publish(b.base, upstream.Addr().String(), rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()

	b.open("/taps")
	b.waitUntil("/taps lists tap-1 for the gRPC console", `!!document.querySelector('a[href="/console/grpc?watch=tap-1"]')`, `document.body.innerText`)
	b.clickAndLoad(`a[href="/console/grpc?watch=tap-1"]`)

	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := toolsv1.NewToolServerClient(conn)
	if _, err := client.ExecuteTool(ctx, &toolsv1.ExecuteToolRequest{ToolName: "word_count", Arguments: []byte(`{"text":"read the wire"}`)}); err != nil {
		t.Fatalf("word_count through the tap: %v", err)
	}
	summary := func(i int) string {
		return messageRows + `[` + string(rune('0'+i)) + `].querySelector(".summary").textContent`
	}
	b.waitUntil("the call and its answer are rows", messageRows+`.length === 2 && `+summary(0)+`.includes("tools.v1.ToolServer/ExecuteTool") && `+summary(1)+`.includes("OK (0)")`, consoleDump)
	b.expect("the call's row is the host's, the answer's the server's", messageRows+`[0].dataset.dir === "out" && `+messageRows+`[1].dataset.dir === "in"`, consoleDump)

	if _, err := client.ExecuteTool(ctx, &toolsv1.ExecuteToolRequest{ToolName: "no_such_tool"}); err == nil {
		t.Fatal("a tool that does not exist: no error")
	}
	b.waitUntil("the next call comes live, with its status", messageRows+`.length === 4 && `+summary(3)+`.includes("NOT_FOUND (5)")`, consoleDump)
	b.click(`#transcript-rows tr.row-in`)
	b.waitUntil("the answer's view shows the exchange, the status in its trailers", `document.getElementById("detail-body")?.textContent.includes("grpc-status: 0")`, consoleDump)
}
