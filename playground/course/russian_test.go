package course

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/chapters"
)

// A word in a pattern below is whole when no letter stands either side
// of it. RE2 has no look-around, and \b knows only ASCII letters, so the
// edges are spelled out (the start of the line or a non-letter), and
// each pattern's first group is the word itself.
const (
	before = `(?:^|[^\p{L}])`
	after  = `(?:[^\p{L}]|$)`
)

// russianRules are what the Russian lessons must not say: the marks a
// find-and-replace of «фрейм» with «кадр» left behind, and the second
// word of a pair where the course uses one word for one thing.
var russianRules = []struct {
	name string
	re   *regexp.Regexp
	fix  string
}{
	{"replace artifact", regexp.MustCompile(`(?i)(кадрворк)`), "«фреймворк»"},
	{"replace artifact", regexp.MustCompile(`(?i)` + before + `((?:во|со|обо) кадр)`), "«в кадр», «с кадром», «о кадре»"},
	// The noun only: «договориться», «договорились» and «договорённость»
	// mean agreeing, which is another thing.
	{"one term per concept", regexp.MustCompile(`(?i)` + before + `(договор(?:а|у|ом|е|ы|ов|ам|ами|ах)?)` + after), "«контракт»"},
	// Not «логика», «логин» or «диалог».
	{"one term per concept", regexp.MustCompile(`(?i)` + before + `(лог(?:а|у|ом|е|и|ов|ам|ами|ах)?)` + after), "«журнал»"},
}

// russianDefects lists, one per finding, every line of the Russian
// lessons in fsys that breaks a rule, with its file and line.
func russianDefects(fsys fs.FS) ([]string, error) {
	names, err := fs.Glob(fsys, "ru/*.md")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, r := range russianRules {
				if m := r.re.FindStringSubmatch(line); m != nil {
					out = append(out, fmt.Sprintf("%s:%d: %s %q: write %s", name, i+1, r.name, m[1], r.fix))
				}
			}
		}
	}
	return out, nil
}

// TestRussianWording checks every Russian lesson for the rules above.
func TestRussianWording(t *testing.T) {
	found, err := russianDefects(chapters.FS)
	if err != nil {
		t.Fatal(err)
	}
	if names, _ := fs.Glob(chapters.FS, "ru/*.md"); len(names) == 0 {
		t.Fatal("no Russian lessons to check")
	}
	for _, f := range found {
		t.Error(f)
	}
}

// TestRussianWordingFinds shows that the check finds each kind of
// defect, and leaves alone the words that only look like one.
func TestRussianWordingFinds(t *testing.T) {
	fsys := fstest.MapFS{
		"ru/01-a.md": {Data: []byte("агентные кадрворки\nВставьте во кадр сам JSON\nпоэтому во кадре они\n" +
			"Договор говорит, какие ключи\nтипизация договора\n")},
		"ru/02-b.md": {Data: []byte("логи идут в stderr\nс логом по кусочкам\n" +
			"о чём договорились, договориться, договорённости\nлогика и логин, диалог, в кадре, во время\n")},
		"en/01-a.md": {Data: []byte("кадрворк is not checked in English\n")},
	}
	got, err := russianDefects(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`ru/01-a.md:1: replace artifact "кадрворк": write «фреймворк»`,
		`ru/01-a.md:2: replace artifact "во кадр": write «в кадр», «с кадром», «о кадре»`,
		`ru/01-a.md:3: replace artifact "во кадр": write «в кадр», «с кадром», «о кадре»`,
		`ru/01-a.md:4: one term per concept "Договор": write «контракт»`,
		`ru/01-a.md:5: one term per concept "договора": write «контракт»`,
		`ru/02-b.md:1: one term per concept "логи": write «журнал»`,
		`ru/02-b.md:2: one term per concept "логом": write «журнал»`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
