package wire

import (
	"bytes"
	"context"
	"flag"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"

	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/tools"
)

var update = flag.Bool("update", false, "rewrite the wire sections of testdata/*.txtar from what is captured now")

// TestTranscripts captures each transcript's call against the real server
// and compares the Format output with the wire section. The comment's
// option lines set up the call:
//
//	method: tools.v1.ToolServer/ExecuteTool   the method to call
//	tokens: s3cret                            the server wants this bearer token
//	authorization: Bearer s3cret              sent as authorization metadata
//	timeout: 5s                               Options.Timeout
//
// and the request section holds the request JSON.
//
// Only the call's own stream is kept. The connection's frames on stream 0
// (SETTINGS acknowledgements, PINGs that grpc-go sends to measure the
// link, WINDOW_UPDATEs, the closing GOAWAY) interleave with the call in an
// order that depends on timing, so they cannot be compared byte for byte;
// TestConnectionFrames checks them instead. Within the call's stream the
// order is fixed: the server cannot answer before it has the request.
func TestTranscripts(t *testing.T) {
	for _, f := range transcript.Glob(t, "testdata/*.txtar") {
		t.Run(f.Name, func(t *testing.T) {
			got := formatCall(t, captureTranscript(t, f))
			if *update {
				f.Rewrite(t, "wire", got)
				return
			}
			if want := f.Section(t, "wire"); !bytes.Equal(got, want) {
				t.Errorf("captured:\n%s\nwant:\n%s\n(run go test -update to accept)", got, want)
			}
		})
	}
}

// captureTranscript makes the call of transcript f against a server of
// its own, set up as the transcript's option lines say.
func captureTranscript(t testing.TB, f *transcript.File) *Exchange {
	t.Helper()
	opts := &grpctool.ServerOptions{}
	if tok := f.Option("tokens"); tok != "" {
		ts, err := tools.ParseTokens(strings.Fields(tok))
		if err != nil {
			t.Fatal(err)
		}
		opts.Tokens = ts
	}
	addr := startServer(t, tools.New(&tools.Options{DeployStep: testDeployStep}), opts)

	callOpts := &Options{}
	if auth := f.Option("authorization"); auth != "" {
		callOpts.Metadata = metadata.Pairs("authorization", auth)
	}
	if d := f.Option("timeout"); d != "" {
		timeout, err := time.ParseDuration(d)
		if err != nil {
			t.Fatal(err)
		}
		callOpts.Timeout = timeout
	}
	e, err := Capture(context.Background(), addr, f.Option("method"), f.Section(t, "request"), callOpts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Values that change from run to run, and what replaces them.
var (
	authorityPort = regexp.MustCompile(`(?m)^(    :authority: 127\.0\.0\.1:)\d+$`)
	userAgent     = regexp.MustCompile(`(?m)^(    user-agent: grpc-go/)\S+$`)
	timeoutValue  = regexp.MustCompile(`(?m)^(    grpc-timeout: )\d+[HMSmun]$`)
	// The request HEADERS carry the port and the timeout, whose HPACK
	// (Huffman) encodings vary in length with their digits.
	requestHeadersLen = regexp.MustCompile(`(?m)^(-> HEADERS stream=\d+ len=)\d+`)
)

// formatCall formats the call's stream, with the values that vary
// replaced.
func formatCall(t *testing.T, e *Exchange) []byte {
	t.Helper()
	call := *e
	call.Frames = nil
	for _, f := range e.Frames {
		if f.StreamID == e.StreamID {
			call.Frames = append(call.Frames, f)
		}
	}
	var b bytes.Buffer
	if err := call.Format(&b); err != nil {
		t.Fatal(err)
	}
	out := b.Bytes()
	out = authorityPort.ReplaceAll(out, []byte("${1}PORT"))
	out = userAgent.ReplaceAll(out, []byte("${1}VERSION"))
	out = timeoutValue.ReplaceAll(out, []byte("${1}TIMEOUT"))
	out = requestHeadersLen.ReplaceAll(out, []byte("${1}N"))
	return out
}
