package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
)

// startTap runs `wirelab tap` with args until stop is called, which ends
// it with SIGTERM and waits, so that its record is complete. It returns
// the address the tap printed.
func startTap(t *testing.T, args ...string) (addr string, stop func()) {
	t.Helper()
	cmd := exec.Command(wirelabBin, append([]string{"tap"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if _, a, ok := strings.Cut(lines.Text(), "wirelab: tap server listening on "); ok {
			_, addr, _ = strings.Cut(a, "://")
			break
		}
	}
	if addr == "" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("tap %v never said where it listens", args)
	}
	var rest bytes.Buffer
	copied := make(chan struct{})
	// Ends when the tap exits and its stderr closes.
	go func() { io.Copy(&rest, stderr); close(copied) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cmd.Process.Signal(syscall.SIGTERM)
			<-copied
			if err := cmd.Wait(); err != nil {
				t.Errorf("tap after SIGTERM: %v, want a clean exit\n%s", err, rest.String())
			}
		})
	}
	t.Cleanup(stop)
	return addr, stop
}

// waitFor waits until a line of the record holds every one of parts.
func waitFor(t *testing.T, record string, parts ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), tapWait)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		b, _ := os.ReadFile(record)
		for _, line := range strings.Split(string(b), "\n") {
			found := true
			for _, p := range parts {
				found = found && strings.Contains(line, p)
			}
			if found {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no line of the record holds %q", parts)
		case <-tick.C:
		}
	}
}

// wireLog keeps every byte a connection wrote and read.
type wireLog struct {
	net.Conn
	mu          sync.Mutex // guards wrote and read
	wrote, read bytes.Buffer
}

func (c *wireLog) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.mu.Lock()
	c.wrote.Write(p[:n])
	c.mu.Unlock()
	return n, err
}

func (c *wireLog) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	c.read.Write(p[:n])
	c.mu.Unlock()
	return n, err
}

// loggedCreds log what a client's connection carries once its
// handshake is done: for TLS, the plaintext HTTP/2 inside.
type loggedCreds struct {
	credentials.TransportCredentials
	log **wireLog
}

func (c loggedCreds) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	conn, info, err := c.TransportCredentials.ClientHandshake(ctx, authority, raw)
	if err != nil {
		return nil, nil, err
	}
	*c.log = &wireLog{Conn: conn}
	return *c.log, info, nil
}

func (c loggedCreds) Clone() credentials.TransportCredentials {
	return loggedCreds{c.TransportCredentials.Clone(), c.log}
}

// TestTapGRPC: grpc-go's client calls wirelab server grpc through
// wirelab tap --grpc: in plaintext, with TLS to the upstream, and with
// TLS on both sides. The calls work; the frames recorded each way,
// joined, are the bytes the client wrote and read (inside TLS, when the
// tap listens with it); package wire reads the calls back out of the
// record; tap check finds nothing and, with --wire, decodes the messages
// with descriptors the upstream gives by reflection.
func TestTapGRPC(t *testing.T) {
	for _, tt := range []struct {
		name      string
		server    []string
		tap       func(certs string) []string
		listenTLS bool // the tap listens with TLS too
	}{
		{"h2c", nil, func(string) []string { return nil }, false},
		{"TLS upstream", []string{"--tls"}, func(certs string) []string { return []string{"--cacert", filepath.Join(certs, "ca.pem")} }, false},
		{"TLS both ways", []string{"--tls"}, func(certs string) []string { return []string{"--cacert", filepath.Join(certs, "ca.pem")} }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			certs := filepath.Join(dir, "certs")
			server := []string{"server", "grpc", "--addr", "127.0.0.1:0"}
			if tt.server != nil {
				server = append(append(server, tt.server...), "--cert-dir", certs)
			}
			upstream := startServer(t, "grpc", server...)
			record := filepath.Join(dir, "grpc.jsonl")
			tapArgs := append([]string{"--grpc", "--listen", "127.0.0.1:0", "--upstream", upstream, "--record", record}, tt.tap(certs)...)
			creds := insecure.NewCredentials()
			tapCA := filepath.Join(dir, "tapcerts", "ca.pem")
			if tt.listenTLS {
				tapArgs = append(tapArgs, "--tls", "--cert-dir", filepath.Dir(tapCA))
			}
			addr, stop := startTap(t, tapArgs...)
			if tt.listenTLS {
				cfg, err := grpctool.ClientTLS(tapCA, "", "")
				if err != nil {
					t.Fatal(err)
				}
				creds = credentials.NewTLS(cfg)
			}

			var conn *wireLog
			cc, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(loggedCreds{creds, &conn}))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), tapWait)
			defer cancel()
			client := toolsv1.NewToolServerClient(cc)
			resp, err := client.ExecuteTool(ctx, &toolsv1.ExecuteToolRequest{ToolName: "word_count", Arguments: []byte(`{"text":"read the wire"}`)})
			if err != nil || string(resp.GetResult()) != `{"words":3,"chars":13}` {
				t.Errorf("ExecuteTool through the tap: %v %v", resp, err)
			}
			stream, err := client.ExecuteToolStream(ctx, &toolsv1.ExecuteToolRequest{ToolName: "word_count", Arguments: []byte(`{"text":"a b"}`)})
			if err != nil {
				t.Fatal(err)
			}
			events := 0
			for {
				if _, err := stream.Recv(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("ExecuteToolStream through the tap: %v", err)
				}
				events++
			}
			cc.Close()
			// The tap may still be reading the client's last frames; its
			// end would cut them off. The client's GOAWAY is its last.
			waitFor(t, record, `"dir":"out","kind":"h2-frame"`, `"frame":"GOAWAY"`)
			stop()

			recorded := readEvents(t, record)
			joined := map[string]*bytes.Buffer{tap.Out: {}, tap.In: {}}
			for _, e := range recorded {
				if e.Kind == tap.KindFrame {
					joined[e.Dir].Write(e.Bytes())
				}
			}
			conn.mu.Lock()
			wrote, read := conn.wrote.String(), conn.read.String()
			conn.mu.Unlock()
			if got := joined[tap.Out].String(); got != wrote || wrote == "" {
				t.Errorf("the client wrote %d bytes, the record holds %d going out, not the same", len(wrote), len(got))
			}
			// The client may stop reading before the server's last
			// frames (a PING's ACK after GOAWAY): what it read is where
			// the record starts.
			if got := joined[tap.In].String(); !strings.HasPrefix(got, read) || read == "" {
				t.Errorf("the client read %d bytes, the record holds %d coming in, and does not start with them", len(read), len(got))
			}

			r := tapcheck.Check(recorded)
			var methods []string
			for _, c := range r.Calls {
				methods = append(methods, c.Method+" "+c.Status)
			}
			want := "/tools.v1.ToolServer/ExecuteTool OK,/tools.v1.ToolServer/ExecuteToolStream OK"
			if strings.Join(methods, ",") != want || len(r.Findings) != 0 {
				t.Errorf("calls %q (want %q), findings %+v (want none)", methods, want, r.Findings)
			}
			if c := r.Calls[len(r.Calls)-1]; c.Responses != events {
				t.Errorf("the stream's call holds %d responses; the client received %d", c.Responses, events)
			}

			// One request and one response, in the singular.
			code, out, _ := exe(t, "", "tap", "check", record)
			if want := "/tools.v1.ToolServer/ExecuteTool OK, 1 request, 1 response\n"; code != 0 || !strings.Contains(out, want) {
				t.Errorf("tap check: exit %d, want 0 and %q in:\n%s", code, want, out)
			}
			code, out, _ = exe(t, "", "tap", "check", "--lang", "ru", record)
			for _, want := range []string{"соединение 1, поток 1: /tools.v1.ToolServer/ExecuteTool OK, 1 запрос, 1 ответ\n", "\n2 вызова gRPC; 0 ошибок, 0 предупреждений, 0 заметок\n"} {
				if code != 0 || !strings.Contains(out, want) {
					t.Errorf("tap check --lang ru: exit %d, want 0 and %q in:\n%s", code, want, out)
				}
			}
			// HAR holds HTTP exchanges, not HTTP/2 frames.
			code, out, stderr := exe(t, "", "tap", "export", "--har", record)
			if want := "is a recording of the gRPC relay, which keeps HTTP/2 frames"; code != exitToolError || out != "" || !strings.Contains(stderr, want) {
				t.Errorf("export --har: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, stderr, want)
			}

			code, out, _ = exe(t, "", append([]string{"tap", "check", record, "--wire"}, tt.tap(certs)...)...)
			for _, s := range []string{
				`field 1 tool_name (len) = "word_count"`,
				`as JSON: {"toolName":"word_count"`,
				"call /tools.v1.ToolServer/ExecuteToolStream on stream 3: OK (0)",
				"-> PREFACE",
				"2 gRPC calls; 0 errors, 0 warnings, 0 notes",
			} {
				if code != 0 || !strings.Contains(out, s) {
					t.Errorf("tap check --wire: exit %d, want 0 and %q in:\n%s", code, s, out)
				}
			}

			// The recording replays clean against the server it recorded,
			// over TLS when the tap reached it over TLS.
			code, out, _ = exe(t, "", append([]string{"replay", record, "--against", upstream}, tt.tap(certs)...)...)
			if code != 0 || !strings.Contains(out, "replay: the answers agree with ") {
				t.Errorf("replay against the recorded server: exit %d, want 0:\n%s", code, out)
			}
			if tt.server != nil {
				return
			}
			// A server that refuses every call (it wants a token) differs,
			// and the diff names each call.
			refusing := startServer(t, "grpc", "server", "grpc", "--addr", "127.0.0.1:0", "--token", "another")
			code, out, _ = exe(t, "", "replay", record, "--against", refusing)
			for _, s := range []string{
				"call /tools.v1.ToolServer/ExecuteTool (connection 1, stream 1): status differs",
				"- grpc-status 0 OK",
				"+ grpc-status 16 Unauthenticated",
				"call /tools.v1.ToolServer/ExecuteToolStream (connection 1, stream 3): status differs",
			} {
				if code != 1 || !strings.Contains(out, s) {
					t.Errorf("replay against a server that refuses: exit %d, want 1 and %q in:\n%s", code, s, out)
				}
			}
		})
	}
}
