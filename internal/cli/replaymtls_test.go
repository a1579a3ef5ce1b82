package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// TestReplayGRPCMutualTLS: a recording of a server that wants a client
// certificate replays against it only with one: --cert and --key, as
// the tap was given, make the answers agree; without them the replay
// fails in the handshake, and one without the other is a usage error.
func TestReplayGRPCMutualTLS(t *testing.T) {
	dir := t.TempDir()
	certs := filepath.Join(dir, "certs")
	upstream := startServer(t, "grpc", "server", "grpc", "--addr", "127.0.0.1:0", "--mtls", "--cert-dir", certs)
	ca, cert, key := filepath.Join(certs, "ca.pem"), filepath.Join(certs, "client.pem"), filepath.Join(certs, "client-key.pem")
	record := filepath.Join(dir, "grpc.jsonl")
	addr, stop := startTap(t, "--grpc", "--listen", "127.0.0.1:0", "--upstream", upstream, "--record", record, "--cacert", ca, "--cert", cert, "--key", key)

	cc, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), tapWait)
	defer cancel()
	resp, err := toolsv1.NewToolServerClient(cc).ExecuteTool(ctx, &toolsv1.ExecuteToolRequest{ToolName: "word_count", Arguments: []byte(`{"text":"read the wire"}`)})
	if err != nil || string(resp.GetResult()) != `{"words":3,"chars":13}` {
		t.Fatalf("ExecuteTool through the tap: %v %v", resp, err)
	}
	cc.Close()
	waitFor(t, record, `"dir":"out","kind":"h2-frame"`, `"frame":"GOAWAY"`)
	stop()

	if code, out, _ := exe(t, "", "replay", record, "--against", upstream, "--cacert", ca, "--cert", cert, "--key", key); code != 0 || !strings.Contains(out, "replay: the answers agree with ") {
		t.Errorf("replay with the client certificate: exit %d, want 0:\n%s", code, out)
	}
	// With TLS 1.3 the server checks the client's certificate after the
	// client's side of the handshake is done: the refusal comes as its
	// alert on the first read, or as a broken pipe when a write comes
	// first.
	if code, out, _ := exe(t, "", "replay", record, "--against", upstream, "--cacert", ca); code != 1 || !strings.Contains(out, "no answer") ||
		!(strings.Contains(out, "certificate required") || strings.Contains(out, "broken pipe") || strings.Contains(out, "connection reset")) {
		t.Errorf("replay without a client certificate: exit %d, want 1 and the server's refusal:\n%s", code, out)
	}
	if code, _, stderr := exe(t, "", "replay", record, "--against", upstream, "--cacert", ca, "--cert", cert); code != 2 || !strings.Contains(stderr, "--cert and --key go together") {
		t.Errorf("replay with --cert alone: exit %d, want 2 saying they go together:\n%s", code, stderr)
	}
}
