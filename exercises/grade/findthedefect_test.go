package grade

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
)

// findTheDefectCases are the find-the-defect answers TestGolden grades:
// the solution, the starter, and wrong answers, each failing where it
// should with the hint that teaches why.
func findTheDefectCases() []gradeCase {
	return []gradeCase{
		{"find-the-defect", "solution", "../../solutions/find-the-defect", "", ""},
		{"find-the-defect", "starter", "../find-the-defect", "gives an answer", hintFTDStarter},
		{"find-the-defect", "not-a-code", "", "gives an answer", hintFTDCode + strings.Join(DefectCodes, ", ") + "."},
		{"find-the-defect", "out-of-range", "", "gives an answer", hintFTDRange},
		{"find-the-defect", "none", "", "finds a defect", hintFTDNone},
		{"find-the-defect", "tool-error-message", "", "names the message", hintFTDToolErr},
		{"find-the-defect", "request", "", "names the message", hintFTDRequest},
		{"find-the-defect", "tools-list", "", "names the message", hintFTDList},
		{"find-the-defect", "stderr", "", "names the message", hintFTDStderr},
		{"find-the-defect", "invalid", "", "names what is wrong", hintFTDNotInval},
		{"find-the-defect", "tool-error-code", "", "names what is wrong", hintFTDNotError},
		{"find-the-defect", "not-jsonrpc", "", "names what is wrong", hintFTDWellForm},
	}
}

// TestFindTheDefectRecording holds the grader's answer to what wirelab
// tap check finds in the recording the learner gets: one error, at the
// event and with the code the grader wants. It also checks that every
// code the exercise accepts is one of the checker's, and that both
// READMEs list them all.
func TestFindTheDefectRecording(t *testing.T) {
	f, err := os.Open("../find-the-defect/recording.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := tap.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	var errs []tapcheck.Finding
	for _, fd := range tapcheck.Check(events).Findings {
		if fd.Severity == tapcheck.SeverityError {
			errs = append(errs, fd)
		}
	}
	if len(errs) != 1 || errs[0].Event != ftdWantEvent || errs[0].Code != ftdWantDefect {
		t.Errorf("tap check finds errors %+v; the grader wants one, %s at event %d", errs, ftdWantDefect, ftdWantEvent)
	}
	rec, err := ftdRecording()
	if err != nil || len(rec) != len(events) {
		t.Errorf("the grader reads %d events (%v), tap.Read %d", len(rec), err, len(events))
	}

	codes := map[string]bool{"none": true}
	for _, r := range tapcheck.Rules {
		codes[r.Code] = true
	}
	for _, readme := range []string{"README.md", "README.ru.md"} {
		text, err := os.ReadFile(filepath.Join("..", "find-the-defect", readme))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range DefectCodes {
			if !codes[c] {
				t.Errorf("%s is not a code of wirelab tap check", c)
			}
			if !strings.Contains(string(text), "`"+c+"`") {
				t.Errorf("%s does not list the code %s", readme, c)
			}
		}
	}
}
