package jsonrpc_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// FuzzDecode feeds Decode arbitrary bytes, starting from every JSON-RPC
// message in the MCP and A2A golden transcripts, and checks the contract
// a receiver relies on: exactly one of a message and an error response;
// the error response is one of Decode's two codes and encodes to one line
// of valid JSON; and a message, encoded again, decodes to the same thing.
func FuzzDecode(f *testing.F) {
	for _, m := range transcriptMessages(f) {
		f.Add(m)
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":"[\"","method":"a","params":[{"s":"]}\\\\"}]}`))
	f.Add(bytes.Repeat([]byte("["), 10_001))

	f.Fuzz(func(t *testing.T, data []byte) {
		msg, reject := jsonrpc.Decode(data)
		if (msg == nil) == (reject == nil) {
			t.Fatalf("Decode(%q) = %v, %v; want exactly one", data, msg, reject)
		}
		if reject != nil {
			if c := reject.Error.Code; c != jsonrpc.CodeParseError && c != jsonrpc.CodeInvalidRequest {
				t.Fatalf("Decode(%q) answered code %d", data, c)
			}
			checkLine(t, reject)
			return
		}
		b := checkLine(t, msg)
		again, reject := jsonrpc.Decode(b)
		if reject != nil {
			t.Fatalf("Decode(%q) = %s, which does not decode: %s", data, b, reject.Error.Message)
		}
		if b2 := checkLine(t, again); !bytes.Equal(b, b2) {
			t.Fatalf("Decode(%q) = %s, then %s", data, b, b2)
		}
	})
}

// checkLine encodes v and checks that it is valid JSON on one line, as
// every transport here sends it.
func checkLine(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encoding %#v: %v", v, err)
	}
	if !json.Valid(b) || bytes.ContainsAny(b, "\r\n") {
		t.Fatalf("encoded as %q", b)
	}
	return b
}

// transcriptMessages returns every line of the MCP and A2A golden
// transcripts that holds a JSON value: stdio lines after "-> " or "<- ",
// SSE events after "data: ", HTTP bodies as they are.
func transcriptMessages(t testing.TB) [][]byte {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../mcp/testdata/*.txtar", "../mcp/testdata/*/*.txtar", "../a2a/testdata/*.txtar"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no golden transcripts found")
	}
	var msgs [][]byte
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(bytes.NewReader(data))
		lines.Buffer(nil, 1<<20)
		for lines.Scan() {
			line := lines.Bytes()
			for _, prefix := range []string{"-> ", "<- ", "data: "} {
				line = bytes.TrimPrefix(line, []byte(prefix))
			}
			if len(line) > 0 && (line[0] == '{' || line[0] == '[') {
				msgs = append(msgs, bytes.Clone(line))
			}
		}
		if err := lines.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return msgs
}
