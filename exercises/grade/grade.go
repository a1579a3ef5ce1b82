package grade

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Grader grades one code exercise: after the program is built, its
// stages run in order, each against the program started afresh.
type Grader struct {
	// Exercise is the exercise's id, as in package exercises.
	Exercise string
	// Stages are the checks after "builds", from the first thing a
	// starter should learn to do to the last.
	Stages []Stage
}

// Stage is one named check with a time limit.
type Stage struct {
	// Name says what the program can do once the stage passes, in a
	// few lowercase words: "answers one call".
	Name string
	// Limit bounds the whole stage, starting the program included.
	// Every wait inside the stage ends at the limit, with a failure.
	Limit time.Duration
	// Run is the check. It returns nil when the program passes, a
	// *Failure when it does not, and any other error for a bug in the
	// grader itself.
	Run func(t *T) error
}

// BuildStage is the name of the first stage of every grade.
const BuildStage = "builds"

// Time limits.
const (
	// BuildLimit bounds "go build". A first build on a slow machine
	// compiles parts of the standard library, which takes a while.
	BuildLimit = 3 * time.Minute
	// DefaultLimit is the usual limit of a stage: long enough for a
	// loaded machine, short enough that a learner whose program hangs
	// is not kept waiting.
	DefaultLimit = 10 * time.Second
	// stageGrace is how long past its limit a stage may take to notice
	// it, before the grader reports its own bug.
	stageGrace = 5 * time.Second
)

// Options change how a grade runs. A nil *Options means the defaults.
type Options struct {
	// AllStages runs every stage even after one fails, for a score.
	// By default the grade stops at the first failure.
	AllStages bool
	// MaxLimit, when positive, lowers every stage's limit but the
	// build's to at most this. The grader's own tests use it for
	// programs that hang.
	MaxLimit time.Duration
	// OnStage, when set, is called as each stage starts (with status
	// Running) and as it ends, so that a caller can show progress.
	OnStage func(index int, r StageResult)
}

// Status is how a stage went.
type Status string

// The statuses of a stage.
const (
	Running  Status = "running"
	Passed   Status = "passed"
	Failed   Status = "failed"
	Skipped  Status = "skipped"  // not run: an earlier stage failed
	Errored  Status = "error"    // the grader itself failed
	Canceled Status = "canceled" // the grade was interrupted
)

// Report is the result of one grade.
type Report struct {
	Exercise string        `json:"exercise"`
	Dir      string        `json:"dir"`
	Passed   bool          `json:"passed"`
	Score    int           `json:"score"` // stages passed
	Stages   []StageResult `json:"stages"`
}

// Failed reports whether the grade found the program wrong: a stage
// failed. A stage that errored is a bug in the grader, and a grade cut
// short has no verdict; neither is a verdict on the learner's program.
func (r *Report) Failed() bool {
	for _, s := range r.Stages {
		if s.Status == Failed {
			return true
		}
	}
	return false
}

// StageResult is how one stage went.
type StageResult struct {
	Name    string   `json:"name"`
	NameRU  string   `json:"name_ru,omitempty"` // the name in Russian, when the catalogue has it
	Status  Status   `json:"status"`
	LimitMS int64    `json:"limit_ms"`
	Failure *Failure `json:"failure,omitempty"`
}

// T is what a stage's Run gets: the built program, and the stage's
// deadline. Every program it starts is killed, with its children, when
// the stage ends.
type T struct {
	ctx   context.Context
	limit time.Duration
	bin   string // the built program
	dir   string // the learner's folder

	mu    sync.Mutex // guards the fields below
	procs []*Process
	stops []func() bool
	ended bool
}

// Context returns the stage's context, which ends at its time limit.
func (t *T) Context() context.Context { return t.ctx }

// Limit returns the stage's time limit.
func (t *T) Limit() time.Duration { return t.limit }

// Dir returns the folder of the program being graded.
func (t *T) Dir() string { return t.dir }

// canceled returns the context's error if the grade itself was stopped
// (an interrupt), as opposed to the stage running out of time.
func (t *T) canceled() error {
	if err := t.ctx.Err(); err != nil && !errors.Is(context.Cause(t.ctx), errStageTime) {
		return err
	}
	return nil
}

var errStageTime = errors.New("the stage's time limit")

// end kills every program the stage started.
func (t *T) end() {
	t.mu.Lock()
	t.ended = true
	procs, stops := t.procs, t.stops
	t.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func() { // ends within killWait
			defer wg.Done()
			p.kill()
		}()
	}
	wg.Wait()
}

// Run builds the program in dir and grades it with g. The report says
// how every stage went; the error is only for an interrupted grade
// (ctx's error), which still returns the report so far. The folder the
// program is built in is removed before Run returns, whichever way it
// returns.
func Run(ctx context.Context, g *Grader, dir string, opts *Options) (*Report, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	rep := &Report{Exercise: g.Exercise, Dir: dir}
	stages := append([]Stage{{Name: BuildStage, Limit: BuildLimit}}, g.Stages...)
	for i, s := range stages {
		limit := s.Limit
		if limit <= 0 {
			limit = DefaultLimit
		}
		if i > 0 && o.MaxLimit > 0 {
			limit = min(limit, o.MaxLimit)
		}
		stages[i].Limit = limit
		r := StageResult{Name: s.Name, Status: Skipped, LimitMS: limit.Milliseconds()}
		r.translate()
		rep.Stages = append(rep.Stages, r)
	}

	// Every return below comes after the stage's programs were killed
	// (runStage waits for that), so nothing still runs from the folder.
	folder, bin, err := newFolder()
	if err != nil {
		rep.Stages[0].Status = Errored
		rep.Stages[0].Failure = Failf("internal error in grader: making a temporary directory: %v", err)
		rep.Stages[0].translate()
		return rep, nil
	}
	defer os.RemoveAll(folder)
	stages[0].Run = func(t *T) error { return build(t, folder, bin) }

	stop := false
	for i, s := range stages {
		if stop {
			continue
		}
		if o.OnStage != nil {
			running := StageResult{Name: s.Name, Status: Running, LimitMS: s.Limit.Milliseconds()}
			running.translate()
			o.OnStage(i, running)
		}
		programBin := bin
		if i == 0 {
			programBin = ""
		}
		r := runStage(ctx, s, dir, programBin)
		rep.Stages[i] = r
		if o.OnStage != nil {
			o.OnStage(i, r)
		}
		switch {
		case r.Status == Passed:
			rep.Score++
		case r.Status == Canceled:
			return rep, ctx.Err()
		case i == 0 || !o.AllStages:
			// Nothing runs without a program, and by default a grade
			// stops at the first failure, as the learner fixes one
			// thing at a time.
			stop = true
		}
	}
	rep.Passed = rep.Score == len(stages)
	return rep, nil
}

// runStage runs one stage and turns what it returned into a result.
func runStage(ctx context.Context, s Stage, dir, bin string) StageResult {
	r := StageResult{Name: s.Name, LimitMS: s.Limit.Milliseconds()}
	sctx, cancel := context.WithTimeoutCause(ctx, s.Limit, errStageTime)
	defer cancel()
	t := &T{ctx: sctx, limit: s.Limit, bin: bin, dir: dir}

	done := make(chan error, 1)
	// This goroutine ends when the stage's Run returns. A Run that
	// ignores its deadline is abandoned after stageGrace; killing its
	// programs below usually unblocks it too.
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- fmt.Errorf("panic: %v", v)
			}
		}()
		done <- s.Run(t)
	}()
	var err error
	grace := time.NewTimer(s.Limit + stageGrace)
	select {
	case err = <-done:
	case <-grace.C:
		err = fmt.Errorf("stage %q did not stop at its time limit of %v", s.Name, s.Limit)
	}
	grace.Stop()
	t.end()

	var f *Failure
	switch {
	case err == nil:
		r.Status = Passed
	case errors.As(err, &f):
		r.Status, r.Failure = Failed, f
	case ctx.Err() != nil:
		r.Status = Canceled
	default:
		r.Status = Errored
		r.Failure = Failf("internal error in grader: %v", err)
	}
	r.translate()
	return r
}
