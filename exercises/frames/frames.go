package frames

import (
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// Event is one event of a playground session's transcript, as the
// playground's hub sends it to the page and keeps it for followers: its
// JSON has the same keys.
type Event struct {
	Op      string `json:"op"`
	ID      int64  `json:"id,omitempty"`
	Target  string `json:"target,omitempty"`
	To      string `json:"to,omitempty"`
	Dir     string `json:"dir,omitempty"`  // "out", "in", "err", or "note"
	Kind    string `json:"kind,omitempty"` // "line", "stderr", "raw", "http-head", "http-body", "grpc", "exit", ...
	At      string `json:"at,omitempty"`
	Text    string `json:"text,omitempty"`
	Size    int    `json:"size,omitempty"`
	Message string `json:"message,omitempty"`
}

// Step is one thing a frame exercise asks for, and whether the transcript
// shows it done.
type Step struct {
	Name   exercises.Text `json:"name"`   // what to do, in each language
	Done   bool           `json:"done"`   // the transcript shows it
	Detail exercises.Text `json:"detail"` // what was seen, or what is missing
}

// Result is a transcript checked against a frame exercise.
type Result struct {
	Exercise string `json:"exercise"`
	Passed   bool   `json:"passed"` // every step is done
	Steps    []Step `json:"steps"`
}

// Frame is one message to type in the playground: where to send it and
// its text, with the placeholders the consoles fill ({{host}},
// {{session}}, {{task}}).
type Frame struct {
	Target string `json:"target"`
	Text   string `json:"text"`
}

// exercise is how one frame exercise is checked and solved.
type exercise struct {
	// check reads the transcript and returns the exercise's steps, in the
	// order the learner meets them.
	check func(events []Event) []Step
	// solution returns frames that pass, in the order to send them.
	solution func() []Frame
}

// byID lists the frame exercises this package knows how to check. It is
// a function, not a package variable, so that nothing here is shared
// state.
func byID() map[string]exercise {
	return map[string]exercise{
		"frames-stdio-errors":  {checkStdioErrors, stdioErrorsSolution},
		"frames-http-auth":     {checkHTTPAuth, httpAuthSolution},
		"frames-grpc-deadline": {checkGRPCDeadline, grpcDeadlineSolution},
		"frames-mcp-handshake": {checkMCPHandshake, mcpHandshakeSolution},
		"frames-mcp-errors":    {checkMCPErrors, mcpErrorsSolution},
		"frames-mcp-version":   {checkMCPVersion, mcpVersionSolution},
		"frames-mcp-stateless": {checkMCPStateless, mcpStatelessSolution},
		"frames-mcp-auth":      {checkMCPAuth, mcpAuthSolution},
		"frames-mcp-hostile":   {checkMCPHostile, mcpHostileSolution},
		"frames-a2a-task":      {checkA2ATask, a2aTaskSolution},
	}
}

// Check grades a session's transcript, oldest event first, against the
// frame exercise id.
func Check(id string, events []Event) (*Result, error) {
	e, ok := exercises.ByID(id)
	if !ok {
		return nil, fmt.Errorf("unknown exercise %q; the exercises are: %s", id, exercises.IDs())
	}
	if e.Kind != exercises.Frame {
		return nil, fmt.Errorf("%s is a code exercise: it is graded by running `wirelab grade %s`, not from a transcript", id, id)
	}
	ex, ok := byID()[id]
	if !ok {
		return nil, fmt.Errorf("internal error in grader: frame exercise %q has no check", id)
	}
	steps := ex.check(events)
	passed := len(steps) > 0
	for _, s := range steps {
		passed = passed && s.Done
	}
	return &Result{Exercise: id, Passed: passed, Steps: steps}, nil
}

// Solution returns the frames that, sent in order to the playground's
// reference servers, pass the frame exercise id.
func Solution(id string) ([]Frame, bool) {
	ex, ok := byID()[id]
	if !ok {
		return nil, false
	}
	return ex.solution(), true
}

// text is a sentence in English and in Russian. The same arguments go
// into both, and an argument that is itself an exercises.Text goes in
// the language of the sentence; a translation that needs the arguments
// in another order uses explicit indexes (%[2]s).
func text(en, ru string, args ...any) exercises.Text {
	if len(args) == 0 {
		return exercises.Text{EN: en, RU: ru}
	}
	in := func(lang string) []any {
		out := make([]any, len(args))
		for i, a := range args {
			if t, ok := a.(exercises.Text); ok {
				a = t.In(lang)
			}
			out[i] = a
		}
		return out
	}
	return exercises.Text{EN: fmt.Sprintf(en, in("en")...), RU: fmt.Sprintf(ru, in("ru")...)}
}

// done and missing make a step whose detail says what was seen, or what
// the transcript still lacks.
func done(name, detail exercises.Text) Step    { return Step{Name: name, Done: true, Detail: detail} }
func missing(name, detail exercises.Text) Step { return Step{Name: name, Detail: detail} }

// notes gathers what a step saw instead of what it wants, each once and
// in order, so that its detail can name every near miss: a learner who
// tried two wrong things learns about both.
type notes []exercises.Text

func (n *notes) add(t exercises.Text) {
	for _, x := range *n {
		if x == t {
			return
		}
	}
	*n = append(*n, t)
}

// or joins the notes, or returns def when there are none.
func (n notes) or(def exercises.Text) exercises.Text {
	if len(n) == 0 {
		return def
	}
	var en, ru []string
	for _, t := range n {
		en, ru = append(en, t.EN), append(ru, t.RU)
	}
	return exercises.Text{EN: strings.Join(en, " "), RU: strings.Join(ru, " ")}
}

// waiting is the detail of a step that cannot be judged before an
// earlier one is done.
func waiting(name exercises.Text) Step {
	return missing(name, text("Do the step before this one first.", "Сначала выполните предыдущий шаг."))
}
