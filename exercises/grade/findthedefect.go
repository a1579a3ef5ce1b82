package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// FindTheDefect grades the find-the-defect exercise: the learner reads a
// recording of an MCP session made by wirelab tap (recording.jsonl, in
// the exercise's folder) and names its one protocol defect, as two
// constants that the program prints on one line:
//
//	14 structured-content-missing
//
// the event (its seq) that holds the faulty message, and a code from a
// fixed list, the codes of wirelab tap check. The stages go from the
// form of the answer to its substance; a wrong answer is told what the
// message it named really is, so that the learner reads the recording
// again with that in mind.
func FindTheDefect() *Grader {
	return &Grader{
		Exercise: "find-the-defect",
		Stages: []Stage{
			{Name: "gives an answer", Run: ftdAnswers},
			{Name: "finds a defect", Run: ftdFindsOne},
			{Name: "names the message", Run: ftdMessage},
			{Name: "names what is wrong", Run: ftdDefect},
		},
	}
}

// The answer. A test holds it to what wirelab tap check finds in the
// recording, so the two cannot drift apart.
const (
	ftdWantEvent  = 14
	ftdWantDefect = "structured-content-missing"
)

// DefectCodes are the answers the exercise accepts for what is wrong:
// the codes of wirelab tap check's findings about the protocol (the
// warnings about hostile text are another matter), and "none". Its
// README lists the same codes.
var DefectCodes = []string{
	"stdout-noise", "not-jsonrpc", "cut-off", "unknown-id", "notification-answered",
	"id-reused", "progress-backwards", "before-initialize", "structured-content-missing",
	"structured-content-invalid", "tool-error", "none",
}

const (
	hintFTDStarter  = `Open recording.jsonl and read it message by message: each line is one event, "seq" its number, "dir" its direction ("out" from the host to the server, "in" back, "err" the server's stderr), and "data" the line that passed. Then set Event to the seq of the faulty message and Defect to one of the codes in README.md.`
	hintFTDForm     = `Leave main as it is: it prints Event, a number, and Defect, one of the codes in README.md, on one line, which is what the grader reads.`
	hintFTDCode     = `Defect is one of these codes, spelled exactly: ` // the list follows
	hintFTDRange    = `Event is the "seq" of a line of recording.jsonl, from 1 (the start of the recording) to the last line (the server's exit).`
	hintFTDNone     = `Every line here is well-formed JSON-RPC and the host went on without complaint: this is a defect a host does not notice. Compare each answer with what the server promised earlier in the same session, in tools/list.`
	hintFTDNotMsg   = `The start and exit events are the tap's own record of the server's process; messages are the events of kind "line" with dir "out" or "in".`
	hintFTDStderr   = `Lines with dir "err" are the server's stderr, where logs belong: nothing there can break the protocol. Look at what the server wrote on stdout (dir "in").`
	hintFTDHost     = `The host in this recording keeps the rules: its requests and its notification are as the specification has them. Look at the server's answers (dir "in"), and at what each promises or owes.`
	hintFTDRequest  = `This request is fine; its answer is not. Find the response with the same id, and compare it with what tools/list said this tool returns.`
	hintFTDToolErr  = `A result with "isError": true is a tool error, the failure reported the way the specification asks, for the model to read. An outputSchema binds successful results only, so a tool error without structuredContent is right.`
	hintFTDList     = `This answer is a promise, not a break: each tool with an outputSchema promises results that carry structuredContent matching it. Find the successful result that breaks the promise.`
	hintFTDOther    = `This message is as the specification wants it. The faulty one is a successful tools/call result: compare it with the tool's outputSchema in the tools/list answer.`
	hintFTDNotInval = `structured-content-invalid is for a structuredContent that is there and does not match the schema. Look again at this result: is structuredContent there at all?`
	hintFTDNotError = `tool-error is not a defect: it is a tool failing and saying so, with "isError": true. This result has no isError: the tool worked.`
	hintFTDWellForm = `The message is well-formed JSON-RPC on one line: "jsonrpc": "2.0", an id and a result. That "id" comes before "jsonrpc" does not matter: the members of a JSON object have no order.`
	hintFTDKnownID  = `Its id answers a request the host sent just before and was waiting on. Look inside the result instead.`
	hintFTDDefect   = `Compare this result with what the tools/list answer (event 7) says its tool returns: which member does the tool's outputSchema call for, and is it here?`
)

// ftdAnswer is what the program printed.
type ftdAnswer struct {
	event  int
	defect string
}

func ftdAnswers(t *T) error {
	_, err := ftdRun(t)
	return err
}

func ftdFindsOne(t *T) error {
	_, err := ftdFound(t)
	return err
}

// ftdFound runs the program, and fails when its answer is "none".
func ftdFound(t *T) (ftdAnswer, error) {
	a, err := ftdRun(t)
	if err != nil {
		return a, err
	}
	if a.defect == "none" {
		f := Failf(`Defect is "none", but one message of this recording breaks a MUST of the specification`)
		f.Hint = hintFTDNone
		return a, f
	}
	return a, nil
}

func ftdMessage(t *T) error {
	a, err := ftdFound(t)
	if err != nil || a.event == ftdWantEvent {
		return err
	}
	rec, err := ftdRecording()
	if err != nil {
		return err
	}
	e := rec[a.event-1]
	f := Failf("event %d is %s; the defect is in another message", a.event, e.describe(rec))
	f.Got = shorten(e.Data)
	switch {
	case e.Kind != "line":
		f.Hint = hintFTDNotMsg
	case e.Dir == "err":
		f.Hint = hintFTDStderr
	case e.Dir == "out" && e.answeredBy(rec) == ftdWantEvent:
		f.Hint = hintFTDRequest
	case e.Dir == "out":
		f.Hint = hintFTDHost
	case e.isToolError():
		f.Hint = hintFTDToolErr
	case e.answers(rec) == "tools/list":
		f.Hint = hintFTDList
	default:
		f.Hint = hintFTDOther
	}
	return f
}

func ftdDefect(t *T) error {
	a, err := ftdFound(t)
	if err != nil || a.defect == ftdWantDefect {
		return err
	}
	f := Failf("%s is not what is wrong with event %d", a.defect, ftdWantEvent)
	if a.event != ftdWantEvent {
		// Only with AllStages: the message was wrong too, and said so.
		f = Failf("%s is not what is wrong with the faulty message, event %d", a.defect, ftdWantEvent)
	}
	switch a.defect {
	case "structured-content-invalid":
		f.Hint = hintFTDNotInval
	case "tool-error":
		f.Hint = hintFTDNotError
	case "stdout-noise", "not-jsonrpc", "cut-off":
		f.Hint = hintFTDWellForm
	case "unknown-id", "id-reused":
		f.Hint = hintFTDKnownID
	default:
		f.Hint = hintFTDDefect
	}
	return f
}

// ftdRun runs the program and reads its answer, failing on an answer
// not yet given or not in the form asked.
func ftdRun(t *T) (ftdAnswer, error) {
	p, err := t.Start()
	if err != nil {
		return ftdAnswer{}, err
	}
	out, err := p.Output()
	if err != nil {
		return ftdAnswer{}, err
	}
	code, err := p.Wait()
	if err != nil {
		return ftdAnswer{}, err
	}
	codes := strings.Join(DefectCodes, ", ") + "."
	bad := func(hint, format string, args ...any) (ftdAnswer, error) {
		f := Failf(format, args...)
		f.Got, f.Hint = shorten(string(out)), hint
		if hint == hintFTDCode {
			// The codes follow the hint's words, in either language.
			f.Hint, f.HintRU = hint+codes, russian(hint)+codes
		}
		if code != 0 {
			f.Stderr = p.Stderr()
		}
		return ftdAnswer{}, f
	}
	if code != 0 {
		return bad(hintFTDForm, "the program exited with status %d", code)
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 || len(fields) > 2 || bytes.Count(bytes.TrimSpace(out), []byte("\n")) > 0 {
		return bad(hintFTDForm, "the program printed something other than one line with Event and Defect")
	}
	var a ftdAnswer
	if a.event, err = strconv.Atoi(fields[0]); err != nil {
		return bad(hintFTDForm, "Event is %q, not a number", fields[0])
	}
	if len(fields) == 2 {
		a.defect = fields[1]
	}
	rec, err := ftdRecording()
	if err != nil {
		return ftdAnswer{}, err
	}
	switch {
	case a.event == 0 && a.defect == "":
		return bad(hintFTDStarter, "Event is 0 and Defect is empty: the answer is still the starter's")
	case a.defect == "":
		return bad(hintFTDCode, "Defect is empty: say what is wrong with event %d", a.event)
	case !slices.Contains(DefectCodes, a.defect):
		return bad(hintFTDCode, "Defect is %q, which is not one of the codes", a.defect)
	case a.defect == "none":
		return a, nil // Event does not matter; the next stage says why "none" is wrong
	case a.event < 1 || a.event > len(rec):
		return bad(hintFTDRange, "Event is %d, and the recording's events are numbered 1 to %d", a.event, len(rec))
	}
	return a, nil
}

// ftdRecorded is one event of the recording, as far as the grader
// reads it (the format is package tap's).
type ftdRecorded struct {
	Seq  int    `json:"seq"`
	Dir  string `json:"dir"`
	Kind string `json:"kind"`
	Data string `json:"data"`
}

// ftdRPC is a JSON-RPC message, as far as the grader reads it.
type ftdRPC struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
}

// ftdRecording reads the recording the learner was given, from the
// exercise's own folder embedded in the binary.
func ftdRecording() ([]ftdRecorded, error) {
	starter, ok := exercises.Starter("find-the-defect")
	if !ok {
		return nil, errors.New("internal error in grader: find-the-defect has no starter")
	}
	b, err := fs.ReadFile(starter, "recording.jsonl")
	if err != nil {
		return nil, fmt.Errorf("internal error in grader: %w", err)
	}
	var rec []ftdRecorded
	for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var e ftdRecorded
		if err := json.Unmarshal(line, &e); err != nil || e.Seq != i+1 {
			return nil, fmt.Errorf("internal error in grader: recording.jsonl line %d: %v", i+1, err)
		}
		rec = append(rec, e)
	}
	return rec, nil
}

// message decodes the event's line as JSON-RPC; false if it is none.
func (e ftdRecorded) message() (ftdRPC, bool) {
	var m ftdRPC
	if e.Kind != "line" || e.Dir == "err" || json.Unmarshal([]byte(e.Data), &m) != nil {
		return m, false
	}
	return m, true
}

// answers returns the method of the request this response answers: the
// latest earlier request with its id, from the other side.
func (e ftdRecorded) answers(rec []ftdRecorded) string {
	m, ok := e.message()
	if !ok || m.Method != "" || m.ID == nil {
		return ""
	}
	for i := e.Seq - 2; i >= 0; i-- {
		r, ok := rec[i].message()
		if ok && r.Method != "" && rec[i].Dir != e.Dir && bytes.Equal(r.ID, m.ID) {
			return r.Method
		}
	}
	return ""
}

// answeredBy returns the seq of the response to this request, or 0.
func (e ftdRecorded) answeredBy(rec []ftdRecorded) int {
	m, ok := e.message()
	if !ok || m.Method == "" || m.ID == nil {
		return 0
	}
	for _, r := range rec[e.Seq:] {
		a, ok := r.message()
		if ok && a.Method == "" && r.Dir != e.Dir && bytes.Equal(a.ID, m.ID) {
			return r.Seq
		}
	}
	return 0
}

// isToolError reports whether the event is a tools/call result with
// isError.
func (e ftdRecorded) isToolError() bool {
	m, ok := e.message()
	var r struct {
		IsError bool `json:"isError"`
	}
	return ok && m.Result != nil && json.Unmarshal(m.Result, &r) == nil && r.IsError
}

// describe says what the event is, in a few words.
func (e ftdRecorded) describe(rec []ftdRecorded) phrase {
	switch {
	case e.Kind == "start":
		return phrasef("the start of the recording, not a message")
	case e.Kind == "exit":
		return phrasef("the server's exit, not a message")
	case e.Dir == "err":
		return phrasef("a line the server wrote on stderr, not a message")
	}
	m, ok := e.message()
	from := phrasef("the server's")
	if e.Dir == "out" {
		from = phrasef("the host's")
	}
	switch {
	case !ok:
		return phrasef("a line that is not JSON")
	case m.Method != "" && m.ID == nil:
		return phrasef("%s notification %s", from, m.Method)
	case m.Method != "":
		return phrasef("%s %s request, id %s", from, m.Method, m.ID)
	case e.isToolError():
		return phrasef("%s answer to %s id %s, a tool error", from, e.answers(rec), m.ID)
	default:
		return phrasef("%s answer to %s id %s", from, e.answers(rec), m.ID)
	}
}
