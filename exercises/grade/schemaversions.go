package grade

import (
	"fmt"
)

// SchemaVersions grades the schema-versions exercise: a stdio tool server
// (the line protocol of stdio-server) whose word_count has a current
// version, 2.0, and two compatible ones, 1.1 and 1.0, each answered in
// its own shape; any other version is refused with the list of those
// served, as protocols/stdio does.
func SchemaVersions() *Grader {
	return &Grader{
		Exercise: "schema-versions",
		Stages: []Stage{
			{Name: "serves the current version", Run: svCurrent},
			{Name: "defaults to the current version", Run: svDefault},
			{Name: "answers old versions in their own shape", Run: svCompatible},
			{Name: "refuses versions it does not serve", Run: svRefuses},
			{Name: "compares versions as whole strings", Run: svWholeStrings},
		},
	}
}

// Hints for the mistakes of this exercise.
const (
	hintSVNewShape = `Version 2.0 answers {"words":N,"characters":M,"lines":L}: "chars" became "characters", and "lines" is new. Renaming a field breaks the callers that read it, which is why 2.0 is a new major version.`

	hintSVDefault = `A call without a version gets the current one, 2.0, in the 2.0 shape: its caller did not pin a contract, so it gets today's. Treat a missing (empty) version as "2.0", then check it like any other.`

	hintSVOldShape = `1.1 and 1.0 are compatible versions: still served, each in its own shape. Their callers were written for {"words":N,"chars":M} and read "chars", so answer them with the 1.x result, not 2.0's. Serving an old version means keeping its contract, not only accepting its name.`

	hintSVRefuse = `A version the server does not serve is refused, not answered with whatever is closest: the caller was written for a contract this server does not have. Answer incompatible_version with the list of versions served.`

	hintSVNotARange = `Compatible versions are a list, not a range: 1.2 was never released, so nothing was promised to its callers, even though it sorts between 1.0 and 2.0. Serve exactly the versions listed: 2.0, 1.1 and 1.0.`

	hintSVListVersions = `The refusal must say what the server does serve: "versions": ["2.0","1.1","1.0"], the current one first, so that the caller can pick one instead of guessing.`

	hintSVWholeStrings = `Versions are names, compared as whole strings: "1" is not "1.0", and "1.10" is not "1.1". Parsed with strconv.ParseFloat they are the same number; compared with == they are different strings, as they should be.`

	hintSVToolFirst = `A tool that does not exist has no versions: check the tool first (unknown_tool), and only then the version it was asked for.`
)

// svServed is the list of versions a refusal carries.
const svServed = `["2.0","1.1","1.0"]`

// svCall is a word_count call; version "" sends none.
func svCall(id, version, text string) string {
	if version == "" {
		return fmt.Sprintf(`{"id":%s,"name":"word_count","args":{"text":%q}}`, id, text)
	}
	return fmt.Sprintf(`{"id":%s,"name":"word_count","version":%q,"args":{"text":%q}}`, id, version, text)
}

// svExpect sends one request and compares its answer with want: exactly,
// or as a subset for errors, whose messages are the server's own. hint
// picks the hint for a wrong answer from what came back, unless the
// difference is a classic mistake with a hint of its own.
func svExpect(p *Process, what, send, want string, subset bool, hint func(got []byte) string) error {
	got, err := p.Call(what, send)
	if err != nil {
		return err
	}
	f := CompareJSON(got, want, subset)
	if f == nil {
		return nil
	}
	if f.Hint == "" && hint != nil {
		f.Hint = hint(got)
	}
	return About(f, what, send)
}

// svHint always gives the same hint.
func svHint(h string) func([]byte) string {
	return func([]byte) string { return h }
}

// svRefused checks that a version is refused with the versions served.
// served is the hint for a server that answered it instead.
func svRefused(p *Process, id, version, served string) error {
	return aboutf(svExpect(p, "",
		svCall(id, version, "which version?"),
		`{"id":`+id+`,"error":{"code":"incompatible_version","message":"<string>","versions":`+svServed+`}}`,
		Subset, func(got []byte) string {
			switch {
			case Field(got, "result") != nil:
				return served
			case string(Field(got, "error", "code")) == `"incompatible_version"`:
				return hintSVListVersions
			}
			return ""
		}), "", "word_count at version %q", version)
}

func svCurrent(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	newShape := func(got []byte) string {
		if Field(got, "result") != nil && (Field(got, "result", "characters") == nil || Field(got, "result", "lines") == nil) {
			return hintSVNewShape
		}
		return ""
	}
	for _, c := range []struct{ id, text, result string }{
		{"1", "read the wire", `{"words":3,"characters":13,"lines":1}`},
		{"2", "one\ntwo lines", `{"words":3,"characters":13,"lines":2}`},
	} {
		err := aboutf(svExpect(p, "",
			svCall(c.id, "2.0", c.text), `{"id":`+c.id+`,"result":`+c.result+`}`, Exact, newShape),
			"", `word_count at version "2.0" on %q`, c.text)
		if err != nil {
			return err
		}
	}
	return nil
}

func svDefault(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	return svExpect(p, "word_count without a version",
		svCall(`"no-version"`, "", "no version asked"),
		`{"id":"no-version","result":{"words":3,"characters":16,"lines":1}}`, Exact, svHint(hintSVDefault))
}

func svCompatible(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	for _, c := range []struct{ id, version string }{{"3", "1.1"}, {"4", "1.0"}} {
		err := aboutf(svExpect(p, "",
			svCall(c.id, c.version, "read the wire"),
			`{"id":`+c.id+`,"result":{"words":3,"chars":13}}`, Exact, svHint(hintSVOldShape)),
			"", "word_count at version %q", c.version)
		if err != nil {
			return err
		}
	}
	// The current version is still answered in its own shape after them.
	return svExpect(p, `word_count at version "2.0" after the 1.x calls`,
		svCall("5", "2.0", "read the wire"),
		`{"id":5,"result":{"words":3,"characters":13,"lines":1}}`, Exact, svHint(hintSVOldShape))
}

func svRefuses(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	if err := svRefused(p, "6", "3.0", hintSVRefuse); err != nil {
		return err
	}
	if err := svRefused(p, "7", "1.2", hintSVNotARange); err != nil {
		return err
	}
	err = svExpect(p, `a tool that does not exist, at version "2.0"`,
		`{"id":8,"name":"word_cont","version":"2.0","args":{"text":"hi"}}`,
		`{"id":8,"error":{"code":"unknown_tool","message":"<string>"}}`, Subset, svHint(hintSVToolFirst))
	if err != nil {
		return err
	}
	return svExpect(p, `word_count at version "1.0" after the refusals`,
		svCall("9", "1.0", "still serving"),
		`{"id":9,"result":{"words":2,"chars":13}}`, Exact, nil)
}

func svWholeStrings(t *T) error {
	p, err := t.Start()
	if err != nil {
		return err
	}
	for i, v := range []string{"1", "2", "1.10", "2.00"} {
		if err := svRefused(p, fmt.Sprint(10+i), v, hintSVWholeStrings); err != nil {
			return err
		}
	}
	return svExpect(p, `word_count at version "1.1" after the refusals`,
		svCall("14", "1.1", "still serving"),
		`{"id":14,"result":{"words":2,"chars":13}}`, Exact, nil)
}
