package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/transcript"
	"github.com/wirelab/wirelab/protocols/tools"
)

// fuzzMaxLine is the line limit of the fuzzed server: small, so that the
// fuzzer reaches the too_large path with short inputs.
const fuzzMaxLine = 256

// FuzzServeLines writes any bytes to the server, then one good request,
// and holds it to the promises of Serve: every line that is not blank
// gets exactly one answer, in order, with the request's id if it had
// one; every answer holds exactly one of a result and an error; and the
// good request after the fuzz input is still answered correctly. Seeds:
// the client side of every golden transcript, whole and line by line.
func FuzzServeLines(f *testing.F) {
	for _, tf := range transcript.Glob(f, "testdata/*.txtar") {
		client := tf.Section(f, "client")
		f.Add(client)
		for _, line := range bytes.Split(client, []byte("\n")) {
			f.Add(line)
		}
	}
	const good = `{"id":"after","name":"word_count","args":{"text":"still serving"}}`
	const goodAnswer = `{"id":"after","result":{"words":2,"chars":13}}`
	srv := NewServer(tools.New(&tools.Options{DeployStep: time.Nanosecond}), &ServerOptions{MaxLine: fuzzMaxLine})
	f.Fuzz(func(t *testing.T, input []byte) {
		in := append(append(bytes.Clone(input), '\n'), good+"\n"...)
		var out bytes.Buffer
		if err := srv.Serve(context.Background(), bytes.NewReader(in), &out); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		answers := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
		var lines [][]byte // the lines that must be answered
		for _, line := range bytes.Split(bytes.TrimSuffix(in, []byte("\n")), []byte("\n")) {
			if len(line) > fuzzMaxLine || len(bytes.TrimSpace(bytes.TrimSuffix(line, []byte("\r")))) > 0 {
				lines = append(lines, line)
			}
		}
		if len(answers) != len(lines) {
			t.Fatalf("%d answers to %d lines that are not blank:\n%s", len(answers), len(lines), out.Bytes())
		}
		for i, line := range lines {
			var resp struct {
				ID     json.RawMessage
				Result json.RawMessage
				Error  *Error
			}
			if err := json.Unmarshal(answers[i], &resp); err != nil {
				t.Fatalf("answer %d is not JSON: %v\n%s", i, err, answers[i])
			}
			if (resp.Result == nil) == (resp.Error == nil) {
				t.Errorf("answer %d holds both or neither of a result and an error: %s", i, answers[i])
			}
			if len(line) > fuzzMaxLine {
				if resp.Error == nil || resp.Error.Code != CodeTooLarge || resp.ID != nil {
					t.Errorf("a line of %d bytes got %s, want too_large without an id", len(line), answers[i])
				}
				continue
			}
			var fields map[string]json.RawMessage
			if json.Unmarshal(bytes.TrimSuffix(line, []byte("\r")), &fields) == nil && fields["id"] != nil {
				if want, got := compact(t, fields["id"]), compact(t, resp.ID); got != want {
					t.Errorf("line %q: answer has id %s, want %s", line, got, want)
				}
			}
		}
		if last := answers[len(answers)-1]; string(last) != goodAnswer {
			t.Errorf("the request after the fuzz input got %s, want %s", last, goodAnswer)
		}
	})
}

// compact is a JSON value without insignificant spaces, or "" for none.
func compact(t *testing.T, v json.RawMessage) string {
	if v == nil {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		t.Fatalf("id %q: %v", v, err)
	}
	return b.String()
}
