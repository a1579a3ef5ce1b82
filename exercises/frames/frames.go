package frames

import (
	"fmt"

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

// Check grades a session's transcript, oldest event first, against the
// frame exercise id.
func Check(id string, events []Event) (*Result, error) {
	return nil, fmt.Errorf("frame exercise %q cannot be checked yet", id)
}

// Solution returns the frames that, sent in order to the playground's
// reference servers, pass the frame exercise id.
func Solution(id string) ([]Frame, bool) {
	return nil, false
}
