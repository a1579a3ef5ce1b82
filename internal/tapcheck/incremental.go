package tapcheck

import "github.com/wirelab/wirelab/internal/tap"

// Checker checks a recording as it is made, one event at a time, for a
// page that marks findings while the tap runs. It applies the same rules
// in the same order as Check, which is a Checker fed the whole recording:
// after Add has taken every event and End has run, Report is what Check
// returns for those events.
//
// A rule may judge an event after a later one (a tool's result checked
// once a later tools/list describes the tool) or add to an earlier
// finding (a request that broke its schema, then refused): Add hands on
// every finding it made or changed, each with its place in the report,
// so that a page can put a finding on its event's row, or replace it.
//
// A Checker is not safe for concurrent use.
type Checker struct {
	c *checker
	// handed is how many of the report's findings were handed on.
	handed int
	// frames are the gRPC frames so far, which End reads back into
	// calls: a call is judged once its connection is over.
	frames []tap.Event
}

// Change is a finding that Add or End made or changed: its index in the
// report's Findings, and the finding as it now is.
type Change struct {
	Index   int     `json:"index"`
	Finding Finding `json:"finding"`
}

// NewChecker returns a Checker that has read nothing yet.
func NewChecker() *Checker {
	return &Checker{c: newChecker()}
}

// Add checks the next event of the recording and returns the findings it
// made or changed, in the order of the report.
func (k *Checker) Add(e tap.Event) []Change {
	k.c.event(e)
	if e.Kind == tap.KindFrame {
		k.frames = append(k.frames, e)
	}
	return k.changes()
}

// End checks what can only be judged when the recording is over (how
// each gRPC call ended, which requests were never answered, and whether
// the checker itself failed) and returns the findings that made. Call it
// once, after the last Add.
func (k *Checker) End() []Change {
	k.c.grpcCalls(k.frames)
	k.frames = nil
	k.c.unanswered()
	if k.c.schemas.err != nil {
		k.c.find("checker-error", 0, "%v", "схема не загрузилась: %v", k.c.schemas.err)
	}
	return k.changes()
}

// Report returns the report so far. It is the Checker's own: read it,
// do not keep it past the next Add.
func (k *Checker) Report() *Report { return k.c.report }

// changes returns the findings amended since the last call, then the new
// ones.
func (k *Checker) changes() []Change {
	findings := k.c.report.Findings
	var out []Change
	for _, i := range k.c.amended {
		if i < k.handed {
			out = append(out, Change{Index: i, Finding: findings[i]})
		}
	}
	k.c.amended = k.c.amended[:0]
	for i := k.handed; i < len(findings); i++ {
		out = append(out, Change{Index: i, Finding: findings[i]})
	}
	k.handed = len(findings)
	return out
}
