package grade

import (
	"errors"
	"fmt"
	"strings"
)

// StdioServer grades the stdio-server exercise: a tool server speaking
// wirelab's stdio protocol (protocols/stdio) on its stdin and stdout.
func StdioServer() *Grader {
	return &Grader{
		Exercise: "stdio-server",
		Stages: []Stage{
			{Name: "answers one call", Run: stdioAnswersOneCall},
			{Name: "echoes ids exactly", Run: stdioEchoesIDs},
			{Name: "reports tool errors", Run: stdioToolErrors},
			{Name: "survives bad lines", Run: stdioBadLines},
			{Name: "handles a 100 KiB line", Run: stdioLongLine},
			{Name: "keeps stdout clean", Run: stdioCleanEnd},
		},
	}
}

// hintRunes is for a character count that counted bytes.
const hintRunes = `"chars" counts characters, not bytes: len(s) is 20 for "привет, мир", utf8.RuneCountInString(s) is 11.`

// hintZeroID is for an id 0 that vanished.
const hintZeroID = "0 is an id like any other, but an int field tagged omitempty leaves it out. Keep the id as a json.RawMessage: only a request without an id has an empty one."

func stdioAnswersOneCall(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := p.Expect("a word_count call without an id",
		`{"name":"word_count","args":{"text":"read the wire"}}`,
		`{"result":{"words":3,"chars":13}}`); err != nil {
		return err
	}
	err = p.Expect("a word_count call on Cyrillic text",
		`{"name":"word_count","args":{"text":"привет, мир"}}`,
		`{"result":{"words":2,"chars":11}}`)
	var f *Failure
	if errors.As(err, &f) && f.Hint == "" && strings.Contains(f.Got, `"chars":20`) {
		f.Hint = hintRunes
	}
	return err
}

func stdioEchoesIDs(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	for _, c := range []struct{ id, text, result, hint string }{
		{`7`, "seven", `{"words":1,"chars":5}`, ""},
		{`"7"`, "seven as a string", `{"words":4,"chars":17}`, ""},
		{`0`, "zero is an id too", `{"words":5,"chars":17}`, hintZeroID},
		{`"call-7"`, "a b c", `{"words":3,"chars":5}`, ""},
		{`12345678901234567890`, "bigger than an int64", `{"words":4,"chars":20}`, HintIDChanged},
	} {
		// The description has the id in it: aboutf puts it in front of
		// a failure, in English and in Russian.
		err := aboutf(p.Expect("",
			fmt.Sprintf(`{"id":%s,"name":"word_count","args":{"text":%q}}`, c.id, c.text),
			fmt.Sprintf(`{"id":%s,"result":%s}`, c.id, c.result)), "", "a call with id %s", c.id)
		if err != nil {
			return WithHint(err, c.hint)
		}
	}
	return nil
}

func stdioToolErrors(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	for _, c := range []struct{ what, send, want string }{
		{"a call of a tool that does not exist",
			`{"id":1,"name":"word_cont","args":{"text":"hi"}}`,
			`{"id":1,"error":{"code":"unknown_tool","message":"<string>"}}`},
		{`a word_count call without "text"`,
			`{"id":2,"name":"word_count","args":{}}`,
			`{"id":2,"error":{"code":"invalid_arguments","message":"<string>"}}`},
		{`a word_count call whose "text" is a number`,
			`{"id":3,"name":"word_count","args":{"text":5}}`,
			`{"id":3,"error":{"code":"invalid_arguments","message":"<string>"}}`},
		{`a word_count call without "args"`,
			`{"id":4,"name":"word_count"}`,
			`{"id":4,"error":{"code":"invalid_arguments","message":"<string>"}}`},
	} {
		if err := p.ExpectSubset(c.what, c.send, c.want); err != nil {
			return err
		}
	}
	return p.Expect("a good call after them",
		`{"id":5,"name":"word_count","args":{"text":"still serving"}}`,
		`{"id":5,"result":{"words":2,"chars":13}}`)
}

func stdioBadLines(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	for _, c := range []struct{ what, send, want string }{
		{"a line that is not JSON", `{not json`, `{"error":{"code":"parse_error","message":"<string>"}}`},
		{"JSON that is not an object", `"just a string"`, `{"error":{"code":"invalid_request","message":"<string>"}}`},
		{"a request without a name", `{"id":9,"args":{"text":"hi"}}`, `{"id":9,"error":{"code":"invalid_request","message":"<string>"}}`},
	} {
		err := p.ExpectAnswered(Answered{
			What: c.what, Bad: c.send, Want: c.want,
			Next:     `{"id":"next","name":"word_count","args":{"text":"still here"}}`,
			NextWant: `{"id":"next","result":{"words":2,"chars":10}}`,
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func stdioLongLine(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	// 100 KiB of text: over bufio.Scanner's default 64 KiB, well under
	// the 1 MiB a server must accept.
	text := strings.Repeat("word ", 20480)
	err = p.Expect("a call whose line is 100 KiB long",
		`{"id":1,"name":"word_count","args":{"text":"`+text+`"}}`,
		`{"id":1,"result":{"words":20480,"chars":102400}}`)
	if err != nil {
		return WithHint(err, HintScanner)
	}
	return WithHint(p.Expect("a call after the long line",
		`{"id":2,"name":"word_count","args":{"text":"after the long line"}}`,
		`{"id":2,"result":{"words":4,"chars":19}}`), HintScanner)
}

func stdioCleanEnd(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	for i, text := range []string{"one", "two words", "and three words"} {
		err := aboutf(p.Expect("",
			fmt.Sprintf(`{"id":%d,"name":"word_count","args":{"text":%q}}`, i+1, text),
			fmt.Sprintf(`{"id":%d,"result":{"words":%d,"chars":%d}}`, i+1, len(strings.Fields(text)), len(text))), "", "call %d of 3", i+1)
		if err != nil {
			return err
		}
	}
	return About(p.ExpectEnd(), "the end of input", "(stdin closed)")
}
