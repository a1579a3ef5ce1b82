// Package grade tests a learner's program from outside, the way a real
// peer would: it builds the program, starts it, speaks the protocol to it,
// and reports in stages what worked and what did not.
//
// # Stages
//
// A [Grader] is a list of [Stage]s, each with a name that says what the
// program can do once it passes ("echoes ids exactly") and a time limit.
// Every grade starts with the stage "builds" (go build in the exercise's
// folder); the grader's own stages follow, in order, each against the
// program started afresh. A grade stops at the first failure, since a
// learner fixes one thing at a time; [Options].AllStages runs them all for
// a score.
//
// A stage is a short script:
//
//	{Name: "answers one call", Run: func(t *grade.T) error {
//		p, err := t.Start()
//		if err != nil {
//			return err
//		}
//		return p.Expect("a word_count call",
//			`{"name":"word_count","args":{"text":"read the wire"}}`,
//			`{"result":{"words":3,"chars":13}}`)
//	}}
//
// Run returns nil when the program passes, a *[Failure] when it does not,
// and any other error (or a panic) for a bug in the grader, which the
// report calls "internal error in grader" so that nobody blames their
// code for it.
//
// # Failures that teach
//
// A failure says what was sent, what was expected, what came back, and
// where the two first differ, with a caret under that byte:
//
//	a call with id 7: the answer is not the one expected
//	Sent:     {"id":7,"name":"word_count","args":{"text":"seven"}}
//	Expected: {"id":7,"result":{"words":1,"chars":5}}
//	Got:      {"id":"7","result":{"words":1,"chars":5}}
//	                ^ first difference
//	Hint: The id must come back exactly as it was sent: ...
//
// [CompareJSON] compares messages ignoring key order and whitespace, and
// names the classic mistakes it recognizes in the difference: keys from
// untagged Go structs ("Name"), snake_case where the wire wants camelCase,
// ids of the wrong type or re-encoded through a float64, nulls that
// omitempty would leave out, and JSON-RPC errors in place of results with
// isError (or the reverse). [Process] recognizes more on its own: a line
// on stdout that is not JSON (logs), a message spread over several lines
// (indentation), an answer without its newline, a program that stopped
// reading its stdin, a flood of output. The Hint constants are there for
// graders to attach where the mistake is specific to a stage, such as
// [HintScanner] after a line over 64 KiB.
//
// # Two languages
//
// The course is in English and Russian, and so are reports. Graders are
// written in English only, and stay readable: the Russian of each
// phrase is looked up in one catalogue, ru.go, a map from the English
// exactly as the source has it (a Failf format, a description given to
// About or Expect, a hint, a stage's name) to its Russian.
//
// A *Failure carries both: [Failf] formats the English and, with the
// same arguments, the Russian format into SummaryRU; About, and the
// few functions that reword a summary, change both. An argument that is
// itself a phrase of the catalogue (a description passed on through
// "%s: ...") is translated too; ids, bytes, numbers, JSON and names on
// the wire are shown as they are, in both. Hints have no arguments:
// HintRU, and a stage's NameRU, are looked up when the stage ends.
// The JSON of a report (what `wirelab grade --json` prints) keeps the
// English in summary, hint and name, with summary_ru, hint_ru and
// name_ru beside them.
//
// The text report is written in a [Lang]: [StageText], [SummaryText],
// [Text] and [Report.WriteText] take one, with labels from the same
// catalogue. A Russian report names each stage as its README.ru.md
// does, the English name and then its Russian ("answers one call —
// отвечает на один вызов"). A phrase the catalogue lacks stays English;
// TestRussianCatalogue walks the package's source and fails for every
// literal phrase without its Russian, and TestRussianVerbs for a
// Russian format that does not take the English's arguments with the
// same verbs.
//
// # Processes
//
// [T.Start] runs the program with pipes for stdin, stdout and stderr, in
// a process group of its own. When the stage ends, for whatever reason,
// the whole group is killed: a program that hangs, or starts children
// that hang, leaves nothing behind. Every read and write ends at
// the stage's limit. stdout is read continuously and at most 4 MiB of it
// is kept, so a program that floods its output neither blocks nor
// exhausts the grader; stderr's last 16 KiB are kept for reports.
//
// # Conventions for exercises
//
// Every exercise's program is in package main in its own folder, DIR/<id>,
// built with "go build" there; it must build with the standard library
// and published modules only.
//
// stdio exercises (stdio-server, schema-versions, mcp-server, mcp-dual)
// read requests from stdin and write answers to stdout, one JSON message
// per line, logs on stderr. At the end of stdin they exit with status 0.
//
// Server exercises that listen on the network (http-server, grpc-server)
// take the address to listen on from a flag:
//
//	prog --addr 127.0.0.1:PORT
//
// [T.StartServer] picks a free loopback port, starts the program with it,
// and waits until the port accepts connections; a program that exits
// first, or never listens, fails with [HintAddr]. Servers should print
// their logs on stderr and stop when killed. [Process.ExpectHTTP] sends
// an HTTP server one request and compares status, headers and body.
//
// Client exercises (mcp-client, a2a-client) get the server to talk to as
// a URL flag, followed by whatever the exercise defines:
//
//	prog --url http://127.0.0.1:PORT/... [ARGS...]
//
// The grader runs the server side itself (an httptest.Server, or a stdio
// peer), starts the client with [T.Start], and checks what it sent, what
// it printed ([Process.Output]) and its exit status ([Process.Wait]).
// Clients print their result on stdout and exit 0 on success, non-zero
// when the tool or the task failed.
//
// find-the-defect is read, not written: its program only prints the
// learner's answer, the event and the code of the defect they found in
// a recording, on one line, and the grader judges the answer.
//
// # Adding a grader
//
// Write a function returning the *Grader in a file named after the
// exercise (stdioserver.go, mcpserver.go), add it to [For], and give it
// testdata: the solution and the starter are graded in TestGolden, and
// at least two deliberately broken variants go in
// testdata/<id>/<variant>.txtar, each a few edits of the reference
// solution (an "old" section that stands once in it, then the "new" one
// that replaces it), listed in gradeCases with the stage it must fail at
// and the hint it must get; go test -update writes their golden reports.
package grade
