package frames

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/exercises"
)

// The transcripts in testdata/<id>/ were recorded from the reference
// servers through the playground's hub (playground's TestFrameExercises
// with -record), which also checks them live on every run: pass.jsonl is
// the exercise's solution, fail.jsonl a learner's classic mistake.

// recorded says, for each frame exercise, the step its fail.jsonl stops
// at (the first step not done) and why.
var recorded = []struct {
	id     string
	failAt int
	why    string
}{
	{"frames-stdio-errors", 2, `the last word_count misspells "text" and is refused, so no good call follows the bad lines`},
	{"frames-http-auth", 1, "a made-up token gets 401 invalid_token, never the 403 a known token without the scope gets"},
	{"frames-grpc-deadline", 0, "a grpc-timeout without a unit is refused, and the next deadline is long enough to succeed"},
	{"frames-mcp-handshake", 1, "over mcp-http, tools/list follows initialize with no notifications/initialized"},
	{"frames-mcp-errors", 2, "bad arguments are a tool error too (isError), so no JSON-RPC error is ever seen"},
	{"frames-mcp-version", 0, "2025-06-18 is a revision the server speaks, so it is echoed, not negotiated"},
	{"frames-mcp-stateless", 0, "the 2026-07-28 call comes after initialize, so it shows nothing about going without one"},
	{"frames-mcp-auth", 8, "the console's templates replayed in order: the 403 is seen, and no step-up follows"},
	{"frames-mcp-hostile", 4, "the tools listed twice with no call of spell_check between: both lists are the same, and no rug pull is seen"},
	{"frames-a2a-task", 2, "the answer goes without the taskId, starts a new task, and that one is rejected"},
}

func readTranscript(t *testing.T, path string) []Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		events = append(events, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return events
}

func firstNotDone(r *Result) int {
	for i, s := range r.Steps {
		if !s.Done {
			return i
		}
	}
	return -1
}

// checkText fails when a step lacks a name or a detail in a language.
func checkText(t *testing.T, r *Result) {
	t.Helper()
	for i, s := range r.Steps {
		for _, x := range []exercises.Text{s.Name, s.Detail} {
			if strings.TrimSpace(x.EN) == "" || strings.TrimSpace(x.RU) == "" || strings.Contains(x.EN+x.RU, "%!") {
				t.Errorf("step %d: name %+v, detail %+v: each needs English and Russian, fully formatted", i, s.Name, s.Detail)
			}
		}
	}
}

func describe(r *Result) string {
	var b strings.Builder
	for i, s := range r.Steps {
		mark := "-"
		if s.Done {
			mark = "+"
		}
		b.WriteString("  " + mark + " " + string(rune('1'+i)) + ". " + s.Name.EN + "\n      " + s.Detail.EN + "\n      " + s.Detail.RU + "\n")
	}
	return b.String()
}

// TestRecorded checks each exercise's recorded transcripts: the solution
// passes, and the mistake stops at the step named above.
func TestRecorded(t *testing.T) {
	for _, tt := range recorded {
		t.Run(tt.id, func(t *testing.T) {
			for name, want := range map[string]int{"pass": -1, "fail": tt.failAt} {
				r, err := Check(tt.id, readTranscript(t, filepath.Join("testdata", tt.id, name+".jsonl")))
				if err != nil {
					t.Fatal(err)
				}
				if got := firstNotDone(r); got != want || r.Passed != (want < 0) {
					t.Errorf("%s.jsonl: passed %v, first step not done %d; want %d (%s)\n%s", name, r.Passed, got, want, tt.why, describe(r))
				}
				checkText(t, r)
				t.Logf("%s.jsonl:\n%s", name, describe(r))
			}
		})
	}
}

// TestEveryFrameExercise checks that every frame exercise of the
// catalogue has a check, a solution and recorded transcripts, and that
// nothing else does.
func TestEveryFrameExercise(t *testing.T) {
	have := map[string]bool{}
	for _, tt := range recorded {
		have[tt.id] = true
	}
	for _, e := range exercises.List() {
		fs, ok := Solution(e.ID)
		if e.Kind != exercises.Frame {
			if ok {
				t.Errorf("%s is a code exercise but has frames", e.ID)
			}
			if _, err := Check(e.ID, nil); err == nil {
				t.Errorf("Check(%s) of a code exercise: no error", e.ID)
			}
			continue
		}
		if !ok || len(fs) == 0 {
			t.Errorf("%s: no solution", e.ID)
		}
		if !have[e.ID] {
			t.Errorf("%s: no recorded transcripts", e.ID)
		}
		r, err := Check(e.ID, nil)
		if err != nil || r.Passed || len(r.Steps) < 2 {
			t.Errorf("Check(%s, no events) = %+v, %v; want every step missing", e.ID, r, err)
			continue
		}
		checkText(t, r)
	}
	if _, err := Check("frames-nope", nil); err == nil || !strings.Contains(err.Error(), "frames-nope") {
		t.Errorf("Check of an unknown exercise: %v, want an error naming it", err)
	}
}
