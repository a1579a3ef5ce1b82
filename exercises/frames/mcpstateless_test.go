package frames

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestStatelessMistakes checks frames-mcp-stateless against the other
// classic mistakes recorded beside fail.jsonl (the call after
// initialize): each stops at its step, and the step's detail names the
// mistake, in both languages.
func TestStatelessMistakes(t *testing.T) {
	for _, tt := range []struct {
		file   string
		failAt int
		saysEN string // a part of the step's English detail
		saysRU string // and of its Russian one
	}{
		{"fail.jsonl", 0, "initialize came first", "первым был initialize"},
		{"fail-no-meta.jsonl", 0, "took it for the legacy era", "принял его за запрос старой эпохи"},
		{"fail-version.jsonl", 0, `names "2025-11-25" in its _meta, a revision with sessions`, `называет в _meta редакцию "2025-11-25" — редакцию с сессиями`},
		{"fail-no-refusal.jsonl", 2, "No 2026-07-28 request refused yet", "Ни один запрос 2026-07-28 пока не получил отказа"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			r, err := Check("frames-mcp-stateless", readTranscript(t, filepath.Join("testdata", "frames-mcp-stateless", tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			got := firstNotDone(r)
			if got != tt.failAt || r.Passed {
				t.Fatalf("passed %v, first step not done %d; want %d\n%s", r.Passed, got, tt.failAt, describe(r))
			}
			d := r.Steps[got].Detail
			if !strings.Contains(d.EN, tt.saysEN) || !strings.Contains(d.RU, tt.saysRU) {
				t.Errorf("step %d's detail does not say %q / %q:\n%s", got, tt.saysEN, tt.saysRU, describe(r))
			}
			checkText(t, r)
			t.Logf("%s:\n%s", tt.file, describe(r))
		})
	}
}

// TestStatelessNotAfterInitialize checks the rule the exercise rests on,
// on the recorded transcripts: the passing call has no initialize before
// it in its run of the server, and the one in fail.jsonl does.
func TestStatelessNotAfterInitialize(t *testing.T) {
	for file, want := range map[string]bool{"pass.jsonl": false, "fail.jsonl": true} {
		msgs := mcpMessages(readTranscript(t, filepath.Join("testdata", "frames-mcp-stateless", file)))
		var calls int
		for _, m := range msgs {
			if m.method == "tools/call" && metaOf(m).version == statelessRevision && m.result != nil {
				calls++
				if got := afterInitialize(msgs, m); got != want {
					t.Errorf("%s: the 2026-07-28 call after initialize: %v, want %v", file, got, want)
				}
			}
		}
		if calls != 1 {
			t.Errorf("%s: %d 2026-07-28 calls answered with a result, want 1", file, calls)
		}
	}
}
