package frames

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzCheck checks any transcript against each frame exercise, starting
// from the recorded ones that pass and fail: the answers in a transcript
// come from servers the learner may have written, so a check must never
// panic on what they say, and it always names its steps in both
// languages.
func FuzzCheck(f *testing.F) {
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range byID() {
			if !yield(id) {
				return
			}
		}
	})
	for i, id := range ids {
		for _, name := range []string{"pass", "fail"} {
			b, err := os.ReadFile(filepath.Join("testdata", id, name+".jsonl"))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), b)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, transcript []byte) {
		id := ids[int(which)%len(ids)]
		// As the playground reads a tab's transcript: one event per
		// line, and lines that are not one are left out.
		var events []Event
		sc := bufio.NewScanner(bytes.NewReader(transcript))
		sc.Buffer(nil, len(transcript)+1)
		for sc.Scan() {
			var e Event
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				events = append(events, e)
			}
		}
		r, err := Check(id, events)
		if err != nil {
			t.Fatalf("Check(%s): %v", id, err)
		}
		if len(r.Steps) == 0 {
			t.Fatalf("Check(%s) has no steps", id)
		}
		for _, s := range r.Steps {
			if s.Name.EN == "" || s.Name.RU == "" {
				t.Errorf("a step not named in both languages: %+v", s)
			}
		}
		if _, err := json.Marshal(r); err != nil {
			t.Errorf("the result does not marshal: %v", err)
		}
	})
}
