package grade

// FixParseError grades the fix-parse-error exercise: a JSON-RPC 2.0
// server over stdio, given with one bug, that must answer a line it
// cannot parse instead of skipping it.
func FixParseError() *Grader {
	return &Grader{
		Exercise: "fix-parse-error",
		Stages: []Stage{
			{Name: "answers requests", Run: fixParseRequests},
			{Name: "answers a line that is not JSON", Run: fixParseBadLine},
		},
	}
}

// hintParseNullID is for a parse error whose answer has no id.
const hintParseNullID = `The answer to a line that could not be parsed still carries an id, and it is null: JSON-RPC 2.0 (section 5) says "id" is required in every response, and null when the request's id could not be read. A tag with omitempty leaves the key out.`

func fixParseRequests(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := p.Expect("a ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`); err != nil {
		return err
	}
	return p.ExpectSubset("a method that does not exist", `{"jsonrpc":"2.0","id":"two","method":"tools/delete"}`,
		`{"jsonrpc":"2.0","id":"two","error":{"code":-32601,"message":"<string>"}}`)
}

func fixParseBadLine(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	return p.ExpectAnswered(Answered{
		What: "a line that is not JSON (a message cut short)",
		Bad:  `{"jsonrpc":"2.0","id":3,"method":"ping"`,
		Want: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"<string>"}}`,
		Hint: hintParseNullID,
		Next: `{"jsonrpc":"2.0","id":"next","method":"ping"}`, NextWant: `{"jsonrpc":"2.0","id":"next","result":{}}`,
	})
}
