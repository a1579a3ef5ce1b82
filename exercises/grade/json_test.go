package grade

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCompareJSON(t *testing.T) {
	for _, tt := range []struct {
		name      string
		got, want string
		subset    bool
		ok        bool
		offset    int    // of the first difference in Got, when not ok
		hint      string // when not ok
	}{
		{name: "same", got: `{"id":1,"result":{"words":3}}`, want: `{"id":1,"result":{"words":3}}`, ok: true},
		{name: "key order and spaces", got: `{"result": {"words": 3}, "id": 1}`, want: `{"id":1,"result":{"words":3}}`, ok: true},
		{name: "string escaped differently", got: `{"s":"\u00e9"}`, want: `{"s":"é"}`, ok: true},
		{name: "extra key, exact", got: `{"id":1,"x":2}`, want: `{"id":1}`, offset: 7},
		{name: "extra key, subset", got: `{"id":1,"x":2}`, want: `{"id":1}`, subset: true, ok: true},
		{name: "placeholders", got: `{"code":-32602,"message":"no","data":null}`, want: `{"code":"<number>","message":"<string>","data":"<any>"}`, ok: true},
		{name: "empty string is not <string>", got: `{"message":""}`, want: `{"message":"<string>"}`, offset: 12},
		{name: "array length", got: `[1,2,3]`, want: `[1,2]`, offset: 4},
		{name: "number text", got: `{"id":1e1}`, want: `{"id":10}`, offset: 7, hint: HintIDChanged},
		{name: "id type", got: `{"id":"7","result":1}`, want: `{"id":7,"result":1}`, offset: 6, hint: HintIDType},
		{name: "capitalized keys", got: `{"ID":null,"Result":{"Words":3},"Error":null}`, want: `{"result":{"words":3}}`, offset: 2, hint: HintJSONTags},
		{name: "snake_case key", got: `{"name":"x","input_schema":{}}`, want: `{"name":"x","inputSchema":{}}`, subset: true, offset: 18, hint: HintCamelCase},
		{name: "null next to result", got: `{"result":1,"error":null}`, want: `{"result":1}`, offset: 11, hint: HintOmitempty},
		{name: "result and error, subset", got: `{"result":{},"error":null}`, want: `{"error":"<any>"}`, subset: true, offset: 2, hint: HintOmitempty},
		{name: "tool error as protocol error",
			got:  `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"bad"}}`,
			want: `{"jsonrpc":"2.0","id":4,"result":{"isError":true}}`, subset: true, offset: 25, hint: HintToolErrorAsProtocolError},
		{name: "protocol error as tool error",
			got:  `{"id":5,"result":{"content":[],"isError":true}}`,
			want: `{"id":5,"error":{"code":-32602}}`, subset: true, offset: 9, hint: HintProtocolErrorAsToolError},
		{name: "not JSON", got: `starting up`, want: `{}`, offset: -1, hint: HintStdoutLogs},
		{name: "indented", got: `{`, want: `{}`, offset: -1, hint: HintIndented},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := CompareJSON([]byte(tt.got), tt.want, tt.subset)
			if tt.ok {
				if f != nil {
					t.Fatalf("failure %q: expected %s, got %s", f.Summary, f.Expected, f.Got)
				}
				return
			}
			if f == nil {
				t.Fatal("matched, want a failure")
			}
			off := -1
			if f.Offset != nil {
				off = *f.Offset
			}
			if off != tt.offset {
				t.Errorf("offset %d, want %d (expected %s, got %s)", off, tt.offset, f.Expected, f.Got)
			}
			if f.Hint != tt.hint {
				t.Errorf("hint %q, want %q", f.Hint, tt.hint)
			}
		})
	}
}

func TestField(t *testing.T) {
	msg := []byte(`{"result":{"tools":[{"name":"a"},{"name":"word_count"}]},"id":null}`)
	for _, tt := range []struct {
		path []string
		want string
	}{
		{[]string{"result", "tools", "1", "name"}, `"word_count"`},
		{[]string{"id"}, `null`},
		{[]string{"result", "tools", "2"}, ``},
		{[]string{"nothing"}, ``},
	} {
		if got := string(Field(msg, tt.path...)); got != tt.want {
			t.Errorf("Field(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestLongLines checks that a difference deep in a long line is shown in
// a window around it, with the caret still under it.
func TestLongLines(t *testing.T) {
	long := strings.Repeat("a", 500)
	f := CompareJSON([]byte(`{"text":"`+long+`","n":2}`), `{"text":"`+long+`","n":1}`, Exact)
	if f == nil {
		t.Fatal("no failure")
	}
	text := StageText(English, 1, 3, StageResult{Name: "x", Status: Failed, Failure: f})
	var got, caret string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "Got:") {
			got = l
		}
		if strings.Contains(l, "^ first difference") {
			caret = l
		}
	}
	// Columns, not bytes: "…" is one column and three bytes.
	col := utf8.RuneCountInString(caret[:strings.Index(caret, "^")])
	if runes := []rune(got); len(runes) <= col || runes[col] != '2' {
		t.Errorf("caret not under the difference:\n%s", text)
	}
	if utf8.RuneCountInString(got) > 120 || !strings.Contains(got, "Got:      …") {
		t.Errorf("long line not cut:\n%s", got)
	}
}

func TestVisible(t *testing.T) {
	s, col := visible("a\tb\x00é\xffz", 7)
	if s != `a\tb\x00é\xffz` || col != 13 {
		t.Errorf("visible = %q, column %d", s, col)
	}
}

func TestWrap(t *testing.T) {
	got := wrap("one two three four", 9)
	if strings.Join(got, "|") != "one two|three|four" {
		t.Errorf("wrap = %q", got)
	}
}

// TestTextRepeats checks that a failure shown once is referred to, not
// repeated, when later stages fail the same way.
func TestTextRepeats(t *testing.T) {
	same := func() *Failure { return &Failure{Summary: "initialize: no answer within 10s", Sent: "x"} }
	rep := &Report{Exercise: "e", Stages: []StageResult{
		{Name: "builds", Status: Passed},
		{Name: "a", Status: Failed, Failure: same()},
		{Name: "b", Status: Failed, Failure: &Failure{Summary: "other"}},
		{Name: "c", Status: Failed, Failure: same()},
	}}
	var b strings.Builder
	rep.WriteText(&b, English)
	want := `e
  ok    1. builds
  FAIL  2. a
        initialize: no answer within 10s
        Sent:     x
  FAIL  3. b
        other
  FAIL  4. c
        the same failure as stage 2
Score: 0 of 4 stages passed.
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
