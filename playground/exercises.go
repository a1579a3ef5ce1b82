package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/exercises/frames"
	"github.com/wirelab/wirelab/exercises/grade"
	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/playground/course"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/solutions"
)

// The exercises, at /exercises/ and /exercises/{id}: instructions, hints
// one at a time, a check, and the solution once passed (or after an
// explicit "show me"). Frame exercises are checked from a console tab's
// transcript, which the hub keeps; code exercises are graded by package
// grade in the learner's workspace, only for a page on this machine,
// since grading builds and runs code. Progress is the one `wirelab
// grade` keeps, so the terminal and the pages agree.

// exerciseSite serves the exercise pages.
type exerciseSite struct {
	hub    *wire.Hub
	store  *progress.Store // nil: progress is neither shown nor saved
	md     *course.Markdown
	course *course.Lessons
	// grading holds one token while a code exercise is graded: grading
	// builds and runs programs, one at a time is plenty for one learner.
	grading chan struct{}
}

// consoleOf is the console where a frame exercise is done: the one whose
// targets include those its answer's frames go to ("mcp" for an
// exercise on mcp-auth), whatever lesson it belongs to.
func consoleOf(id string) string {
	answer, _ := frames.Solution(id)
	for _, f := range answer {
		for _, c := range consoles() {
			if slices.Contains(c.Targets, f.Target) {
				return c.Slug
			}
		}
	}
	return "" // the console list, /console/, then
}

// newExerciseSite serves the exercises, with the learner's progress in
// store and the transcripts of the hub's sessions for frame exercises.
func newExerciseSite(h *wire.Hub, store *progress.Store, c *course.Lessons) *exerciseSite {
	// Grade folders that a wirelab killed in the middle of a grade left
	// behind; a grade running elsewhere keeps its own (see grade.StaleAge).
	grade.RemoveStale()
	return &exerciseSite{hub: h, store: store, md: course.NewMarkdown(), course: c, grading: make(chan struct{}, 1)}
}

// loaded is the learner's progress as a page reads it: the state, and,
// when the file cannot be read, why (the store's own sentence, which
// names the file and says what to do, as `wirelab` in a terminal says).
type loaded struct {
	progress.State
	Problem string
}

// state reads the learner's progress. A progress file that cannot be
// read shows as no progress with its Problem, which the pages show; it
// is never replaced.
func (x *exerciseSite) state(l lang) loaded {
	if x == nil || x.store == nil {
		return loaded{}
	}
	st, err := x.store.Load()
	if err != nil {
		log.Printf("playground: reading progress: %v", err)
		return loaded{Problem: problem(err, l)}
	}
	return loaded{State: st}
}

// save changes the learner's progress, for a page on this machine only:
// a page from elsewhere is another person, whose passes are not this
// learner's; saved is false then, with no error. The error is a progress
// file that cannot be read or written, for the page to show.
func (x *exerciseSite) save(r *http.Request, change func(*progress.State)) (saved bool, err error) {
	if x.store == nil || !wire.IsLocalPeer(r) {
		return false, nil
	}
	err = x.store.Update(func(st *progress.State) error {
		change(st)
		return nil
	})
	if err != nil {
		log.Printf("playground: saving progress: %v", err)
		return false, err
	}
	return true, nil
}

// problem is the text a page in l shows for progress that could not be
// read or saved, or "". The store's errors are English, for the
// terminal; a Russian page says the same in Russian.
func problem(err error, l lang) string {
	var corrupt *progress.CorruptError
	var newer *progress.NewerError
	switch {
	case err == nil:
		return ""
	case l != ru:
		return err.Error()
	case errors.As(err, &corrupt):
		return fmt.Sprintf("файл прогресса %s не читается (%v), поэтому прогресс нельзя ни показать, ни сохранить; "+
			"файл оставлен как есть. Исправьте его или переименуйте (например, в %s.broken), чтобы начать заново",
			corrupt.Path, corrupt.Err, filepath.Base(corrupt.Path))
	case errors.As(err, &newer):
		return fmt.Sprintf("файл прогресса %s записан более новым wirelab (формат %d; этот читает %d): "+
			"обновите этот wirelab (в его клоне: git pull, затем go install .) или укажите в %s другую папку, чтобы вести для него отдельный прогресс",
			newer.Path, newer.Format, newer.Reads, progress.HomeEnv)
	}
	return "прогресс не удаётся прочитать или сохранить: " + err.Error()
}

func (x *exerciseSite) list(w http.ResponseWriter, r *http.Request) {
	v := viewFor(w, r)
	show(w, r, http.StatusOK, exerciseList(v, exerciseStrings(v.Lang), newProgressView(x.state(v.Lang)), x.course))
}

// exerciseView is one exercise's page.
type exerciseView struct {
	pageView
	T          exerciseText
	Ex         exercises.Exercise
	Progress   progress.Exercise
	State      exerciseState // where the learner stands on it, from Progress
	HTML       template.HTML // the instructions
	Hints      []string      // the hints shown so far
	Local      bool          // the page is on this machine
	Workspace  string        // the learner's workspace, if any
	Console    string        // a frame exercise's console, with the exercise panel
	HasAnswers bool          // a solution exists to show
	Problem    string        // why progress cannot be read or saved, if it cannot
}

func (x *exerciseSite) find(w http.ResponseWriter, r *http.Request) (pageView, exercises.Exercise, bool) {
	v := viewFor(w, r)
	e, ok := exercises.ByID(r.PathValue("id"))
	if !ok {
		show(w, r, http.StatusNotFound, exerciseNotFound(v, exerciseStrings(v.Lang), r.PathValue("id")))
	}
	return v, e, ok
}

func (x *exerciseSite) page(w http.ResponseWriter, r *http.Request) {
	v, e, ok := x.find(w, r)
	if !ok {
		return
	}
	x.showPage(w, r, v, e, http.StatusOK, "")
}

// showPage shows an exercise's page with status. problem, when not "",
// is why the progress could not be saved, shown at the top; a progress
// file that cannot be read is shown there anyway.
func (x *exerciseSite) showPage(w http.ResponseWriter, r *http.Request, v pageView, e exercises.Exercise, status int, problem string) {
	st := x.state(v.Lang)
	p := st.Exercise(e.ID)
	ev := exerciseView{pageView: v, T: exerciseStrings(v.Lang), Ex: e, Progress: p, State: stateOf(&st.State, e.ID), Local: wire.IsLocalPeer(r), Problem: problem}
	if ev.Problem == "" {
		ev.Problem = st.Problem
	}
	md, err := exercises.Instructions(e.ID, string(v.Lang))
	if err == nil {
		out, rerr := x.md.Render([]byte(md), v.Lang)
		if rerr != nil {
			http.Error(w, "rendering the instructions: "+rerr.Error(), http.StatusInternalServerError)
			return
		}
		ev.HTML = template.HTML(out.HTML)
	}
	// A page from elsewhere cannot count hints in this machine's
	// progress: it asks for them in its address, ?hints=N.
	shown := p.HintsShown
	if !ev.Local {
		shown, _ = strconv.Atoi(r.URL.Query().Get("hints"))
	}
	hints := e.Hints.In(string(v.Lang))
	ev.Hints = hints[:max(0, min(shown, len(hints)))]
	if e.Kind == exercises.Frame {
		ev.Console = "/console/" + consoleOf(e.ID) + "?exercise=" + e.ID
		_, ev.HasAnswers = frames.Solution(e.ID)
	} else {
		_, ev.HasAnswers = solutions.Files(e.ID)
		if st.Workspace != "" {
			ev.Workspace = filepath.Join(st.Workspace, e.ID)
		}
	}
	ev.Scripts = append(ev.Scripts, "/static/exercise.js")
	show(w, r, status, exercisePage(ev))
}

// hint shows one more hint: it is counted in the progress, as `wirelab
// hint` counts it, and the page shows every hint counted so far. With a
// progress file that cannot be read or saved, the page comes back with
// the reason, and no new hint, since which one is next is unknown.
func (x *exerciseSite) hint(w http.ResponseWriter, r *http.Request) {
	e, ok := exercises.ByID(r.PathValue("id"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	n := len(e.Hints.EN)
	saved, err := x.save(r, func(st *progress.State) {
		p := st.Exercise(e.ID)
		p.HintsShown = min(p.HintsShown+1, n)
		st.SetExercise(e.ID, p)
	})
	switch {
	case err != nil:
		v := viewFor(w, r)
		x.showPage(w, r, v, e, http.StatusInternalServerError, problem(err, v.Lang))
		return
	case !saved:
		http.Error(w, "hints are counted in the progress of this machine's learner, which this page cannot change", http.StatusForbidden)
		return
	}
	http.Redirect(w, r, "/exercises/"+e.ID+"#hints", http.StatusSeeOther)
}

// solutionView is the reference solution, or the question before it.
type solutionView struct {
	pageView
	T       exerciseText
	Ex      exercises.Exercise
	Confirm bool          // ask first: not passed, not confirmed
	Local   bool          // the page is on this machine; elsewhere, no confirming here
	Early   bool          // shown before passing
	HTML    template.HTML // the solution, highlighted
	Problem string        // why progress cannot be read or saved, if it cannot
}

// solution shows the reference solution to a learner who passed; anyone
// else is asked first (GET), and sees it on confirming (POST).
func (x *exerciseSite) solution(w http.ResponseWriter, r *http.Request) {
	v, e, ok := x.find(w, r)
	if !ok {
		return
	}
	st := x.state(v.Lang)
	sv := solutionView{pageView: v, T: exerciseStrings(v.Lang), Ex: e, Problem: st.Problem, Local: wire.IsLocalPeer(r)}
	passed := st.Exercise(e.ID).Passed
	if !passed && r.Method != http.MethodPost {
		sv.Confirm = true
		show(w, r, http.StatusOK, solutionPage(sv))
		return
	}
	if !passed {
		sv.Early = true
		// A solution seen early is remembered; progress that cannot
		// record it is said, and the solution is not shown, as a hint
		// would not be.
		_, err := x.save(r, func(st *progress.State) {
			p := st.Exercise(e.ID)
			p.SolutionShown = true
			st.SetExercise(e.ID, p)
		})
		if err != nil {
			sv.Confirm, sv.Problem = true, problem(err, v.Lang)
			show(w, r, http.StatusInternalServerError, solutionPage(sv))
			return
		}
	}
	src, ok := solutionMarkdown(e, sv.T)
	if !ok {
		http.NotFound(w, r)
		return
	}
	out, err := x.md.Render([]byte(src), v.Lang)
	if err != nil {
		http.Error(w, "rendering the solution: "+err.Error(), http.StatusInternalServerError)
		return
	}
	sv.HTML = template.HTML(out.HTML)
	show(w, r, http.StatusOK, solutionPage(sv))
}

// solutionMarkdown writes a solution as markdown, so that it is
// highlighted like the lessons' code: a frame exercise's frames in order,
// or a code exercise's Go files (tests aside).
func solutionMarkdown(e exercises.Exercise, t exerciseText) (string, bool) {
	var b strings.Builder
	fence := func(lang, text string) {
		fmt.Fprintf(&b, "````%s\n%s\n````\n\n", lang, strings.TrimRight(text, "\n"))
	}
	if e.Kind == exercises.Frame {
		fs, ok := frames.Solution(e.ID)
		if !ok {
			return "", false
		}
		b.WriteString(t.FramesInOrder + "\n\n")
		for i, f := range fs {
			fmt.Fprintf(&b, "%d. `%s`\n\n", i+1, f.Target)
			fence("text", f.Text)
		}
		return b.String(), true
	}
	sol, ok := solutions.Files(e.ID)
	if !ok {
		return "", false
	}
	// main.go first: the learner's file; the rest (fs.Glob sorts them)
	// after it.
	names, _ := fs.Glob(sol, "*.go")
	if i := slices.Index(names, "main.go"); i > 0 {
		names = append([]string{"main.go"}, slices.Delete(names, i, i+1)...)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".pb.go") {
			continue
		}
		src, err := fs.ReadFile(sol, name)
		if err != nil {
			return "", false
		}
		fmt.Fprintf(&b, "### %s\n\n", name)
		fence("go", string(src))
	}
	return b.String(), true
}

// check grades a frame exercise from the transcript of a console tab's
// session, named in the body as {"session": ID}. The id is the tab's
// secret; the check only reads what the tab itself was shown. A pass is
// saved in the progress, and so is a failure once the tab has sent a
// frame, as `wirelab grade` saves both; only for a page on this machine.
func (x *exerciseSite) check(w http.ResponseWriter, r *http.Request) {
	l := requestLang(r)
	e, ok := exercises.ByID(r.PathValue("id"))
	if !ok || e.Kind != exercises.Frame {
		jsonError(w, http.StatusNotFound, inLang(l, "no frame exercise ", "нет кадрового упражнения ")+r.PathValue("id"))
		return
	}
	var body struct {
		Session string `json:"session"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&body); err != nil {
		jsonError(w, http.StatusBadRequest, inLang(l, "the body must be JSON: ", "тело запроса должно быть JSON: ")+`{"session": "..."}`)
		return
	}
	raw, ok := x.hub.Transcript(body.Session)
	if !ok {
		jsonError(w, http.StatusNotFound, inLang(l, "no such session: it ended, or the console reconnected; send the frames again",
			"такой сессии нет: она закончилась, или консоль подключилась заново; отправьте кадры ещё раз"))
		return
	}
	events := make([]frames.Event, 0, len(raw))
	for _, b := range raw {
		var ev frames.Event
		if json.Unmarshal(b, &ev) == nil {
			events = append(events, ev)
		}
	}
	res, err := frames.Check(e.ID, events)
	if err != nil {
		jsonError(w, http.StatusInternalServerError, err.Error())
		return
	}
	var saved bool
	var serr error
	switch {
	case res.Passed:
		saved, serr = x.save(r, func(st *progress.State) { st.Pass(e.ID, time.Now()) })
	case sentFrames(events):
		// A check of a tab that has sent nothing yet is a look at the
		// steps, not an attempt: only a failure after frames were sent
		// counts.
		saved, serr = x.save(r, func(st *progress.State) { st.Fail(e.ID, time.Now()) })
	}
	writeJSON(w, http.StatusOK, struct {
		*frames.Result
		Saved   bool   `json:"saved"`             // the pass or the failure is in the progress
		Problem string `json:"problem,omitempty"` // why it was not saved
	}{res, saved, problem(serr, l)})
}

// inLang is en or ru, whichever is in l: the few words of an answer to a
// page's script, which the page shows after its own.
func inLang(l lang, english, russian string) string {
	if l == ru {
		return russian
	}
	return english
}

// sentFrames reports whether a transcript holds a frame the tab sent.
func sentFrames(events []frames.Event) bool {
	return slices.ContainsFunc(events, func(ev frames.Event) bool { return ev.Dir == "out" })
}

// grade grades a code exercise in the learner's workspace and streams
// the stages as they run, one JSON object per line: {"op":"stage",...}
// as each starts and ends, then {"op":"done",...}, in the page's
// language. It builds and runs code, so it answers only a page on this
// machine.
func (x *exerciseSite) grade(w http.ResponseWriter, r *http.Request) {
	l := requestLang(r)
	e, ok := exercises.ByID(r.PathValue("id"))
	g, hasGrader := grade.For(r.PathValue("id"))
	if !ok || !hasGrader {
		jsonError(w, http.StatusNotFound, inLang(l, "no code exercise ", "нет кодового упражнения ")+r.PathValue("id"))
		return
	}
	if !wire.IsLocalPeer(r) {
		jsonError(w, http.StatusForbidden, inLang(l, "code is built and run only for a page on this machine; grade in a terminal: wirelab grade ",
			"код собирается и запускается только для страницы, открытой на этой машине; проверьте в терминале: wirelab grade ")+e.ID)
		return
	}
	st := x.state(l)
	if st.Problem != "" {
		// The workspace is found in the progress, and a pass could not
		// be recorded in it.
		jsonError(w, http.StatusInternalServerError, st.Problem)
		return
	}
	ws := st.Workspace
	if ws == "" {
		jsonError(w, http.StatusConflict, inLang(l, "there is no workspace yet: run wirelab init DIR first",
			"рабочей папки пока нет: сначала выполните wirelab init DIR"))
		return
	}
	dir := filepath.Join(ws, e.ID)
	if _, err := os.Stat(dir); err != nil {
		jsonError(w, http.StatusConflict, fmt.Sprintf(inLang(l, "%s is not there: run wirelab init again, or grade in a terminal with --dir",
			"папки %s нет: выполните wirelab init ещё раз или проверьте в терминале с --dir"), dir))
		return
	}
	select {
	case x.grading <- struct{}{}:
		defer func() { <-x.grading }()
	default:
		jsonError(w, http.StatusTooManyRequests, inLang(l, "another grade is running; wait for it to finish",
			"уже идёт другая проверка; дождитесь, пока она закончится"))
		return
	}
	// The grade ends with the tab (the request's context) or with the
	// playground, whose Close waits for it: the programs it started are
	// killed and its folder removed before wirelab exits.
	ctx, release, ok := x.hub.Hold(r.Context())
	if !ok {
		jsonError(w, http.StatusServiceUnavailable, inLang(l, "the playground is shutting down", "площадка завершает работу"))
		return
	}
	defer release()

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	flush := func(v any) {
		json.NewEncoder(w).Encode(v) // a line of JSON: its error is the tab's going away
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	total := len(g.Stages) + 1
	// The report speaks the page's language: the stage's name, and the
	// text of its result, which is the terminal's in that language.
	gl := grade.Lang(l)
	// The stages run in this goroutine; a tab that goes away cancels the
	// request's context, which stops the grade and its programs.
	rep, err := grade.Run(ctx, g, dir, &grade.Options{OnStage: func(i int, s grade.StageResult) {
		flush(map[string]any{"op": "stage", "index": i, "total": total, "name": grade.StageName(gl, s.Name), "status": s.Status,
			"text": grade.StageText(gl, i, total, s)})
	}})
	if err != nil && rep == nil {
		flush(map[string]any{"op": "done", "passed": false, "summary": err.Error()})
		return
	}
	// An interrupted grade (err) has no verdict, and a grade of the
	// reference solution proves the grader, not the learner: neither is
	// recorded. Of the rest, a pass is, and so is a failure, if a stage
	// failed: a stage that errored is the grader's own bug, no verdict on
	// the learner's program.
	saved := false
	var serr error
	if err == nil && !solutions.Same(e.ID, dir) {
		switch {
		case rep.Passed:
			saved, serr = x.save(r, func(st *progress.State) { st.Pass(e.ID, time.Now()) })
		case rep.Failed():
			saved, serr = x.save(r, func(st *progress.State) { st.Fail(e.ID, time.Now()) })
		}
	}
	done := map[string]any{"op": "done", "passed": rep.Passed, "summary": grade.SummaryText(gl, rep), "saved": saved}
	if serr != nil {
		done["problem"] = problem(serr, l)
	}
	flush(done)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// progressView is the learner's progress, for the home page and the list.
type progressView struct {
	State    progress.State
	Problem  string // why the progress file cannot be read, if it cannot
	Passed   int
	Started  int // exercises passed or tried: the home page lists them all once one is
	Total    int
	ByLesson []lessonExercises
}

// lessonExercises are one lesson's exercises, in the course's order.
type lessonExercises struct {
	Lesson    string
	Exercises []exercises.Exercise
}

func newProgressView(l loaded) progressView {
	st := l.State
	pv := progressView{State: st, Problem: l.Problem}
	for _, e := range exercises.List() {
		pv.Total++
		if st.Exercise(e.ID).Passed {
			pv.Passed++
		}
		if stateOf(&st, e.ID) != notStarted {
			pv.Started++
		}
		if n := len(pv.ByLesson); n == 0 || pv.ByLesson[n-1].Lesson != e.Lesson {
			pv.ByLesson = append(pv.ByLesson, lessonExercises{Lesson: e.Lesson})
		}
		last := &pv.ByLesson[len(pv.ByLesson)-1]
		last.Exercises = append(last.Exercises, e)
	}
	return pv
}

// state is where the learner stands on an exercise, as the course map
// shows it.
func (pv progressView) state(id string) exerciseState { return stateOf(&pv.State, id) }

func exerciseHref(id string) templ.SafeURL { return templ.SafeURL("/exercises/" + id) }
