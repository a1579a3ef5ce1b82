package playground

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/skip2/go-qrcode"

	"github.com/wirelab/wirelab/exercises"
	"github.com/wirelab/wirelab/internal/classroom"
	"github.com/wirelab/wirelab/playground/wire"
)

// The classroom (wirelab serve --classroom): the playground open to the
// machines of a room. A page on this machine is the instructor's, and
// may do everything it may do today. A page from elsewhere is a
// follower's once it has given the join code: a cookie then holds the
// follower's id, and the follower may read every page, follow sessions
// and check frame exercises against the follower's own transcript;
// never start processes, build code, use custom targets (the engine
// refuses those to every tab not on this machine) or change the
// instructor's progress. A page from elsewhere without the cookie gets
// the join page and the static files, nothing else.

// Classroom opens the playground to a room. A nil *Classroom, in
// Options, leaves the playground as it is.
type Classroom struct {
	// Room is the join code and the followers. Nil, with Others, makes a
	// playground with no room of its own that shows the dashboard of the
	// room its bus shares (the instructor's laptop that presents to
	// playgrounds on NATS): no join page, no code, no door.
	Room *classroom.Room
	// Others, when set, spreads the dashboard over the playgrounds whose
	// hubs share this one's bus (Options.Hub, wirelab serve --nats): this
	// playground tells them its followers, and its dashboard lists theirs
	// beside its own (classroom_spread.go). Nil means this playground
	// alone.
	Others *classroom.Others
	// JoinURLs are the join page's addresses as the room's machines reach
	// it (http://HOST:PORT/join), the one to show first first.
	JoinURLs []string
	// LogDir is where the dashboard writes a session log when the
	// instructor asks for one. Empty means nowhere: the button says so.
	LogDir string
}

// FollowRemote relays the presenter of an instructor's playground, which
// this wirelab joined as a follower (wirelab serve --follow), into this
// playground: its tabs that watch "instructor" (/ws?watch=instructor)
// see what a follower of the instructor's playground sees. wsURL is the
// instructor's /ws?watch=presenter, header carries the follower's
// cookie. It returns when ctx ends or the playground closes; report
// hears each time the connection comes or goes (wire.Hub.FollowRemote).
func (p *Playground) FollowRemote(ctx context.Context, wsURL string, header http.Header, report func(wire.RelayReport)) error {
	return p.hub.FollowRemote(ctx, wsURL, header, report)
}

// Limits of the classroom's pages, each with its reason.
const (
	// followerCookie holds a follower's id. It is HttpOnly (no script
	// reads it) and SameSite=Lax (another site's form posts without it),
	// and lasts as long as the browser: the room forgets its followers
	// when wirelab stops anyway.
	followerCookie = "wirelab-follower"
	// maxClassroomBody bounds what a follower's page posts: a page's path,
	// or an exercise and the first lines of a failure.
	maxClassroomBody = 8 << 10
	// dashboardTick is how often the dashboard is sent the room even when
	// nothing changed, so that "last seen" and who is connected stay true,
	// and the followers of a playground fallen silent leave it.
	dashboardTick = 5 * time.Second
	// dashboardGap is the least time between two sends that the other
	// playgrounds' snapshots cause: however many report, the dashboard
	// redraws at most four times a second.
	dashboardGap = 250 * time.Millisecond
	// qrSize is the QR code's side in pixels; the page scales it to the
	// projector without blurring (image-rendering: pixelated).
	qrSize = 512
)

// classroomSite serves the join page, the dashboard and what followers'
// pages report, and keeps the door (access).
type classroomSite struct {
	room    *classroom.Room   // nil for a dashboard of the other playgrounds only
	others  *classroom.Others // nil for a room on this playground alone
	host    string            // this machine's name, in the snapshots it sends
	started time.Time         // for the session log of a playground without a room
	urls    []string
	logDir  string
	hub     *wire.Hub // its Hold ends the dashboard's stream when the playground closes
}

// newClassroomSite returns the classroom's site, or nil for a playground
// that is not a classroom and shows no other playground's.
func newClassroomSite(c *Classroom, h *wire.Hub) *classroomSite {
	if c == nil || (c.Room == nil && c.Others == nil) {
		return nil
	}
	s := &classroomSite{room: c.Room, others: c.Others, started: time.Now(), urls: c.JoinURLs, logDir: c.LogDir, hub: h}
	if s.others != nil {
		s.host, _ = os.Hostname() // without one, the snapshots name the playground alone
		s.spread()
	}
	return s
}

// access is the classroom's door, in front of every route. A page on
// this machine passes. From elsewhere, the join page and the static
// files are open to all; everything else needs a follower's cookie: a
// page without it is sent to the join page, anything else (a script's
// request, the websocket) is answered 401. A follower may then GET every
// page but the instructor's (the dashboard), and POST only what a
// follower's pages post: the join, a check, an answer to a lesson's
// question, what it reports.
func (c *classroomSite) access(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if wire.IsLocalPeer(r) || r.URL.Path == "/join" ||
			(strings.HasPrefix(r.URL.Path, "/static/") && (r.Method == http.MethodGet || r.Method == http.MethodHead)) {
			next.ServeHTTP(w, r)
			return
		}
		if _, ok := c.follower(r); !ok {
			c.turnAway(w, r)
			return
		}
		if why := followerMayNot(r); why != "" {
			refuse(w, r, http.StatusForbidden, why)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// follower returns the follower whose cookie the request carries. A
// cookie whose id the room does not know (forged, or from before a
// restart) is no follower's.
func (c *classroomSite) follower(r *http.Request) (string, bool) {
	ck, err := r.Cookie(followerCookie)
	if err != nil {
		return "", false
	}
	_, ok := c.room.Follower(ck.Value)
	return ck.Value, ok
}

// turnAway answers a request from elsewhere without a follower's cookie:
// a page goes to the join page, which comes back to it; the rest is 401.
func (c *classroomSite) turnAway(w http.ResponseWriter, r *http.Request) {
	_, noCookie := r.Cookie(followerCookie)
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && isPage(r) {
		q := url.Values{"next": {r.URL.RequestURI()}}
		if noCookie == nil {
			q.Set("again", "1") // a cookie the room does not know: say the place is gone
		}
		http.Redirect(w, r, "/join?"+q.Encode(), http.StatusSeeOther)
		return
	}
	// RFC 9110 section 15.5.2: a 401 carries a challenge. The scheme
	// is no standard one: it names the form where the code is given.
	w.Header().Set("WWW-Authenticate", `Cookie realm="wirelab classroom", form="/join"`)
	refuse(w, r, http.StatusUnauthorized, "join the classroom first: open /join on this address and type the code on the instructor's screen")
}

// isPage tells a page, which a browser shows, from what a script asks
// for: the websocket and the dashboard's stream.
func isPage(r *http.Request) bool {
	return r.URL.Path != "/ws" && !strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// followerMayNot says why a follower may not make the request, or "" if
// it may.
func followerMayNot(r *http.Request) string {
	p := r.URL.Path
	t := classroomStrings(requestLang(r))
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if p == "/classroom" || strings.HasPrefix(p, "/classroom/") {
			return t.DashboardOnly
		}
		return ""
	}
	if r.Method == http.MethodPost {
		switch {
		case p == "/classroom/seen", p == "/classroom/progress":
			return ""
		case strings.HasPrefix(p, "/exercises/") && strings.HasSuffix(p, "/check"):
			return "" // a check reads the follower's own transcript and saves nothing (exerciseSite.save)
		case strings.HasPrefix(p, "/learn/") && strings.HasSuffix(p, "/quiz"):
			return "" // an answer is checked; the follower's page keeps it, nothing is saved here (quiz.go)
		}
	}
	return t.FollowerMayNot
}

// refuse answers a refusal: as JSON, which the pages' scripts read
// ({"error": ...}), except to a form or a page opened in the browser,
// which the browser shows as text.
func refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	ct := r.Header.Get("Content-Type")
	opened := (r.Method == http.MethodGet || r.Method == http.MethodHead) && strings.Contains(r.Header.Get("Accept"), "text/html")
	if opened || r.URL.Path == "/ws" || strings.HasPrefix(ct, "application/x-www-form-urlencoded") || strings.HasPrefix(ct, "multipart/form-data") {
		http.Error(w, msg, status)
		return
	}
	jsonError(w, status, msg)
}

// peerIP is the address the room counts wrong codes by: the peer's IP,
// without its port, which changes with every connection.
func peerIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// joinView is the join page: the form, filled with what was typed.
type joinView struct {
	pageView
	T       classroomText
	Code    string
	Name    string
	Next    string // where the page goes once joined
	Problem string // why the last try failed, if it did
	As      string // the follower's name, for a page that has joined
}

// joinPage shows the code form; ?code= fills it in (the QR code carries
// it), ?next= is where to go once joined.
func (c *classroomSite) joinPage(w http.ResponseWriter, r *http.Request) {
	v := viewFor(w, r)
	v.Styles = append(v.Styles, "/static/classroom.css")
	q := r.URL.Query()
	jv := joinView{pageView: v, T: classroomStrings(v.Lang), Code: q.Get("code"), Next: safeNext(q.Get("next"))}
	if id, ok := c.follower(r); ok {
		f, _ := c.room.Follower(id)
		jv.As = f.Name
	} else if q.Get("again") == "1" {
		jv.Problem = jv.T.Lost
	}
	show(w, r, http.StatusOK, joinPage(jv))
}

// join admits a follower who gives the code and a name: it sets the
// cookie and goes on to the page asked for. A wrong code, too many of
// them, a missing name or a full room show the form again, with why, in
// a status a program can tell apart (wirelab serve --follow reads it).
func (c *classroomSite) join(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxClassroomBody)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "the join form could not be read: "+err.Error(), http.StatusBadRequest)
		return
	}
	v := viewFor(w, r)
	v.Styles = append(v.Styles, "/static/classroom.css")
	jv := joinView{pageView: v, T: classroomStrings(v.Lang), Code: r.PostForm.Get("code"), Name: r.PostForm.Get("name"),
		Next: safeNext(r.PostForm.Get("next"))}
	// One who joined already (the QR code scanned again, a name
	// mended) stays one row on the dashboard.
	held, _ := c.follower(r)
	id, err := c.room.Rejoin(held, peerIP(r), jv.Code, jv.Name)
	if err != nil {
		status := http.StatusForbidden
		switch err {
		case classroom.ErrWrongCode:
			jv.Problem, jv.Code = jv.T.WrongCode, ""
		case classroom.ErrTooManyTries:
			status, jv.Problem = http.StatusTooManyRequests, jv.T.TooMany
			w.Header().Set("Retry-After", "60")
		case classroom.ErrNoName:
			status, jv.Problem = http.StatusBadRequest, jv.T.NoName
		case classroom.ErrFull:
			status, jv.Problem = http.StatusServiceUnavailable, jv.T.Full
		default:
			status, jv.Problem = http.StatusInternalServerError, err.Error()
		}
		show(w, r, status, joinPage(jv))
		return
	}
	http.SetCookie(w, &http.Cookie{Name: followerCookie, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	next := jv.Next
	if next == "" || next == "/" {
		// A student who scanned the projector's QR code goes straight
		// to the presenter's console, which follows the presenter from
		// page to page.
		next = followerStart
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// followerStart is where a follower lands after joining.
const followerStart = "/console/mcp?watch=presenter"

// safeNext is where the join page may go once joined: a path of this
// site, never another site ("//evil.example", "https://...").
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") || strings.HasPrefix(next, "/join") {
		return ""
	}
	return next
}

// seen is a follower's page saying where it is: {"page": "/learn/..."},
// every ten seconds or so; or a student's own wirelab, which follows
// for the student (wirelab serve --follow), saying it is there:
// {"own": true}. It is answered 204, and only with a follower's cookie.
func (c *classroomSite) seen(w http.ResponseWriter, r *http.Request) {
	id, ok := c.follower(r)
	if !ok {
		jsonError(w, http.StatusForbidden, "only a follower's page reports where it is: join first")
		return
	}
	var body struct {
		Page string `json:"page"`
		Own  bool   `json:"own"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxClassroomBody)).Decode(&body); err != nil {
		jsonError(w, http.StatusBadRequest, `the body must be JSON: {"page": "/learn/..."} or {"own": true}`)
		return
	}
	if body.Own {
		c.room.SeenOwn(id)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if !strings.HasPrefix(body.Page, "/") {
		jsonError(w, http.StatusBadRequest, `"page" must be a path of this site, such as /learn/`)
		return
	}
	c.room.Seen(id, body.Page)
	w.WriteHeader(http.StatusNoContent)
}

// progress is a follower's page sharing progress, or ceasing to:
// {"share": true|false} turns sharing on or off (off forgets what was
// shared), and {"exercise": ID, "passed": bool, "failure": "..."}, after
// a check, is kept while the follower shares. Both may come in one body.
// It is answered 204, and only with a follower's cookie.
func (c *classroomSite) progress(w http.ResponseWriter, r *http.Request) {
	id, ok := c.follower(r)
	if !ok {
		jsonError(w, http.StatusForbidden, "only a follower's page shares progress: join first")
		return
	}
	var body struct {
		Share    *bool  `json:"share"`
		Exercise string `json:"exercise"`
		Passed   bool   `json:"passed"`
		Failure  string `json:"failure"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxClassroomBody)).Decode(&body); err != nil {
		jsonError(w, http.StatusBadRequest, `the body must be JSON: {"share": true} or {"exercise": "...", "passed": false, "failure": "..."}`)
		return
	}
	if body.Exercise != "" {
		if _, ok := exercises.ByID(body.Exercise); !ok {
			jsonError(w, http.StatusBadRequest, "no exercise "+body.Exercise)
			return
		}
	}
	if body.Share != nil {
		c.room.Share(id, *body.Share)
	}
	if body.Exercise != "" {
		c.room.Record(id, body.Exercise, body.Passed, body.Failure)
	}
	w.WriteHeader(http.StatusNoContent)
}

// classroomPanel is what the instructor's home page and dashboard show
// for the room to join: the addresses, the code, the QR code.
type classroomPanel struct {
	T        classroomText
	Code     string
	JoinURLs []string
	Follow   string // the command a student with wirelab of their own runs
}

// dashboardName is what the home page calls its link to the dashboard,
// for a page on the instructor's machine; "" where there is no dashboard
// or it is not this machine's.
func (c *classroomSite) dashboardName(r *http.Request, l lang) string {
	if c == nil || !wire.IsLocalPeer(r) {
		return ""
	}
	return classroomStrings(l).Dashboard
}

// panel is the classroom's panel, for a page on the instructor's
// machine; nil elsewhere, and when the playground is no classroom.
func (c *classroomSite) panel(r *http.Request, l lang) *classroomPanel {
	if c == nil || c.room == nil || !wire.IsLocalPeer(r) {
		return nil
	}
	p := &classroomPanel{T: classroomStrings(l), Code: c.room.Code(), JoinURLs: c.urls}
	if len(c.urls) > 0 {
		p.Follow = "wirelab serve --follow " + c.urls[0] + "?code=" + p.Code
	}
	return p
}

// qrHref is the address of the QR code of the i-th join URL.
func qrHref(i int) string { return "/classroom/qr.png?n=" + strconv.Itoa(i) }

// qr is the QR code of a join URL (?n=, the first by default), with the
// code in it, so that a phone that scans it has the form filled in.
func (c *classroomSite) qr(w http.ResponseWriter, r *http.Request) {
	if !wire.IsLocalPeer(r) {
		http.Error(w, "the QR code is shown on the instructor's machine", http.StatusForbidden)
		return
	}
	n, _ := strconv.Atoi(r.URL.Query().Get("n"))
	if n < 0 || n >= len(c.urls) {
		http.NotFound(w, r)
		return
	}
	png, err := qrcode.Encode(c.urls[n]+"?code="+c.room.Code(), qrcode.Medium, qrSize)
	if err != nil {
		http.Error(w, "drawing the QR code: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(png)
}

// dashboardView is the instructor's dashboard.
type dashboardView struct {
	pageView
	T         classroomText
	Panel     *classroomPanel // nil on a playground without a room of its own
	Followers []followerRow
	Spread    bool // the room spans playgrounds: each row says which
	CanLog    bool // a place to write the session log is known
}

// followerRow is one follower on the dashboard, as the page and its
// script show it: the words already in the dashboard's language.
type followerRow struct {
	Seat      int      `json:"seat"`
	Name      string   `json:"name"`
	Page      string   `json:"page"`
	Own       bool     `json:"own,omitempty"` // follows from their own wirelab: Page says so, in words
	Seen      string   `json:"seen"`          // "12 s ago"
	Connected bool     `json:"connected"`
	Share     bool     `json:"share"`
	Passed    []string `json:"passed"`            // the titles of the exercises passed
	Failed    string   `json:"failed,omitempty"`  // the title of the exercise that last failed
	Failure   string   `json:"failure,omitempty"` // what its check said
	Where     string   `json:"where,omitempty"`   // the playground it follows on, in a room that spans several
}

// dashboardData is what the dashboard's stream sends at every change.
type dashboardData struct {
	Connected int           `json:"connected"`
	Followers []followerRow `json:"followers"`
	Spread    bool          `json:"spread,omitempty"` // the rows say where
}

// rows are the room's followers as the dashboard shows them, now: this
// playground's, then, in a room that spans several, each other
// playground's as it last told them.
func (c *classroomSite) rows(l lang) dashboardData {
	t := classroomStrings(l)
	now := time.Now()
	var d dashboardData
	d.Followers = []followerRow{}
	if c.room != nil {
		here := ""
		if c.others != nil {
			here = t.Here
		}
		for _, f := range c.room.Followers() {
			d.add(t, l, now, f, here)
		}
	}
	if c.others != nil {
		d.Spread = true
		for _, s := range c.others.Snapshots() {
			where := s.Instance
			if s.Host != "" {
				where = s.Host + " · " + s.Instance
			}
			for _, f := range s.Followers {
				d.add(t, l, now, f, where)
			}
		}
	}
	return d
}

// add adds follower f, of the playground where, as the dashboard shows
// it.
func (d *dashboardData) add(t classroomText, l lang, now time.Time, f classroom.Follower, where string) {
	row := followerRow{Seat: f.Seat, Name: f.Name, Page: f.Page, Own: f.Own, Seen: t.ago(now.Sub(f.LastSeen)),
		Connected: f.ConnectedAt(now), Share: f.Share, Passed: []string{}, Where: where}
	if f.Own {
		// Which page the student has open there stays on the
		// student's machine.
		row.Page = t.OnOwn
	}
	if row.Connected {
		d.Connected++
	}
	for _, p := range f.Passed {
		row.Passed = append(row.Passed, exerciseTitle(p.Exercise, l))
	}
	if f.Failure != nil {
		row.Failed, row.Failure = exerciseTitle(f.Failure.Exercise, l), f.Failure.Message
	}
	d.Followers = append(d.Followers, row)
}

func exerciseTitle(id string, l lang) string {
	if e, ok := exercises.ByID(id); ok {
		return e.Title.In(string(l))
	}
	return id
}

// dashboard shows who is in the room, for the instructor's machine only;
// static/classroom.js keeps it live from events.
func (c *classroomSite) dashboard(w http.ResponseWriter, r *http.Request) {
	if !wire.IsLocalPeer(r) {
		http.Error(w, classroomStrings(requestLang(r)).DashboardOnly, http.StatusForbidden)
		return
	}
	v := viewFor(w, r)
	v.Styles = append(v.Styles, "/static/classroom.css")
	v.Scripts = append(v.Scripts, "/static/classroom.js")
	show(w, r, http.StatusOK, dashboardPage(dashboardView{pageView: v, T: classroomStrings(v.Lang), Panel: c.panel(r, v.Lang),
		Followers: c.rows(v.Lang).Followers, Spread: c.others != nil, CanLog: c.logDir != ""}))
}

// events streams the room to the dashboard as server-sent events: the
// followers now, then again at every change (of this playground's room,
// or another playground's snapshot, at most every dashboardGap) and
// every dashboardTick. It ends when the page goes away or the playground
// closes.
func (c *classroomSite) events(w http.ResponseWriter, r *http.Request) {
	if !wire.IsLocalPeer(r) {
		http.Error(w, classroomStrings(requestLang(r)).DashboardOnly, http.StatusForbidden)
		return
	}
	ctx, release, ok := c.hub.Hold(r.Context())
	if !ok {
		http.Error(w, "the playground is shutting down", http.StatusServiceUnavailable)
		return
	}
	defer release()
	l := viewFor(w, r).Lang
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	tick := time.NewTicker(dashboardTick)
	defer tick.Stop()
	var changed, reported <-chan struct{} // nil, for what this playground lacks, is never ready
	for {
		// Taken before reading the room: no change falls between.
		if c.room != nil {
			changed = c.room.Changed()
		}
		if c.others != nil {
			reported = c.others.Changed()
		}
		b, _ := json.Marshal(c.rows(l))
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return // the page went away
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-changed:
		case <-reported:
			gap := time.NewTimer(dashboardGap)
			select {
			case <-gap.C:
			case <-ctx.Done():
				gap.Stop()
				return
			}
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

// writeLog writes the session log, when the instructor asks: the room's
// followers and what they shared, as JSON, in a new file in logDir; in a
// room that spans playgrounds, the other playgrounds' followers too, as
// the dashboard shows them ("elsewhere"). It answers {"path": ...}.
// Nothing else of the classroom is ever written.
func (c *classroomSite) writeLog(w http.ResponseWriter, r *http.Request) {
	if !wire.IsLocalPeer(r) {
		jsonError(w, http.StatusForbidden, "the session log is written on the instructor's machine only")
		return
	}
	if c.logDir == "" {
		jsonError(w, http.StatusConflict, "this playground knows no folder to write a session log in")
		return
	}
	l := classroom.Log{Started: c.started, Written: time.Now(), Followers: []classroom.Follower{}}
	if c.room != nil {
		l = c.room.Log()
	}
	if c.others != nil {
		l.Elsewhere = c.others.Snapshots()
	}
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		jsonError(w, http.StatusInternalServerError, "encoding the log: "+err.Error())
		return
	}
	// The log holds the followers' names: for the instructor's eyes only.
	// A name is never taken twice (two logs in one second): O_EXCL, and
	// "-2", "-3"... after the time.
	var path string
	err = os.MkdirAll(c.logDir, 0o700)
	for n := 1; err == nil; n++ {
		name := "classroom-" + l.Written.Format("2006-01-02T15-04-05")
		if n > 1 {
			name += "-" + strconv.Itoa(n)
		}
		path = filepath.Join(c.logDir, name+".json")
		var f *os.File
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			err = nil
			continue
		}
		if err == nil {
			_, err = f.Write(append(b, '\n'))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		break
	}
	if err != nil {
		log.Printf("playground: writing the session log: %v", err)
		jsonError(w, http.StatusInternalServerError, "writing the session log: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"path": path})
}

// classroomText is every string of the classroom's pages, in one
// language. The dashboard's script gets those it needs in the page's
// data.
type classroomText struct {
	Title      string `json:"-"` // the join page's
	Intro      string `json:"-"`
	Code       string `json:"-"`
	Name       string `json:"-"`
	Join       string `json:"-"`
	Can        string `json:"-"` // what a follower may do
	WrongCode  string `json:"-"`
	TooMany    string `json:"-"`
	NoName     string `json:"-"`
	Full       string `json:"-"`
	Lost       string `json:"-"` // a cookie the room no longer knows
	JoinedAs   string `json:"-"` // followed by the name
	GoOn       string `json:"-"`
	Classroom  string `json:"-"` // the panel's and the dashboard's title
	Open       string `json:"-"` // before the join URL
	TypeCode   string `json:"-"` // before the code
	OrScan     string `json:"-"`
	OwnWirelab string `json:"-"` // before the --follow command
	Dashboard  string `json:"-"` // a link to the dashboard
	Seat       string `json:"-"` // the columns
	Who        string `json:"-"`
	Page       string `json:"-"`
	OnOwn      string `json:"-"` // the page of a student who follows from their own wirelab
	Where      string `json:"-"` // the column of the playground a follower is on, in a room that spans several
	Here       string `json:"-"` // this playground, in that column
	NoRoom     string `json:"-"` // the dashboard of a playground without a room of its own
	LastSeen   string `json:"-"`
	Progress   string `json:"-"`
	WriteLog   string `json:"-"`
	LogNote    string `json:"-"`
	Nobody     string `json:"nobody"`
	Connected  string `json:"connected"`  // "%d of %d connected"
	Away       string `json:"away"`       // a follower not seen for classroom.Connected
	NotShared  string `json:"notShared"`  // a follower who does not share progress
	PassedNone string `json:"passedNone"` // shares, has passed nothing yet
	Failed     string `json:"failed"`     // before the exercise that last failed
	Live       string `json:"live"`       // the stream is up
	Reconnect  string `json:"reconnect"`  // the stream dropped
	Written    string `json:"written"`    // followed by the log's path
	LogFailed  string `json:"logFailed"`  // followed by why
	SecondsAgo string `json:"-"`          // "%d s ago"
	MinutesAgo string `json:"-"`
	HoursAgo   string `json:"-"`
	JustNow    string `json:"-"`
	// What a follower is told it may not do.
	DashboardOnly  string `json:"-"` // the dashboard, on another machine
	FollowerMayNot string `json:"-"` // anything else a follower may not do
}

// ago says how long ago, as the dashboard shows it.
func (t classroomText) ago(d time.Duration) string {
	switch {
	case d < 2*time.Second:
		return t.JustNow
	case d < time.Minute:
		return fmt.Sprintf(t.SecondsAgo, int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf(t.MinutesAgo, int(d/time.Minute))
	}
	return fmt.Sprintf(t.HoursAgo, int(d/time.Hour))
}

func classroomStrings(l lang) classroomText {
	if l == ru {
		return classroomText{
			Title:         "Войти в класс",
			Intro:         "Введите код с экрана преподавателя и имя, под которым преподаватель увидит вас в списке.",
			Code:          "Код",
			Name:          "Ваше имя",
			Join:          "Войти",
			Can:           "В классе можно читать все страницы, следить за сессией преподавателя и проверять кадровые упражнения по записи своей сессии. Ваш прогресс видит преподаватель, только если вы сами решите им поделиться. Запускать процессы, собирать код и подключаться к своим серверам можно только в своём wirelab.",
			WrongCode:     "Неверный код: сверьте его с экраном преподавателя.",
			TooMany:       "Слишком много неверных кодов с этого адреса (с него могут входить и другие — через общий Wi-Fi или прокси): подождите минуту и попробуйте снова.",
			NoName:        "Введите имя: преподаватель видит его в списке.",
			Full:          "Класс заполнен.",
			Lost:          "Вашего места в классе больше нет (wirelab преподавателя перезапущен?): войдите снова.",
			JoinedAs:      "Вы в классе под именем ",
			GoOn:          "Дальше",
			Classroom:     "Класс",
			Open:          "Студенты открывают",
			TypeCode:      "и вводят код",
			OrScan:        "или сканируют:",
			OwnWirelab:    "Студент со своим wirelab:",
			Dashboard:     "Кто в классе",
			Seat:          "№",
			Who:           "Имя",
			Page:          "Страница",
			OnOwn:         "в своём wirelab",
			Where:         "Где",
			Here:          "здесь",
			NoRoom:        "У этого wirelab нет своего класса: в списке участники других экземпляров wirelab, подключённых к тому же серверу NATS. Студенты входят через них.",
			LastSeen:      "Был(а) на связи",
			Progress:      "Прогресс",
			WriteLog:      "Записать журнал занятия",
			LogNote:       "Пока вы не нажмёте кнопку, ничего не записывается: ни имена, ни прогресс.",
			Nobody:        "Пока никто не вошёл.",
			Connected:     "На связи: %d из %d.",
			Away:          "нет связи",
			NotShared:     "не делится прогрессом",
			PassedNone:    "пока ничего не пройдено",
			Failed:        "последняя неудача: ",
			Live:          "обновляется вживую",
			DashboardOnly: "панель класса открывается только на машине преподавателя",
			FollowerMayNot: "в классе это может только машина преподавателя; участник может читать все страницы, " +
				"следить за сессиями и проверять упражнения с кадрами (подсказки, решения и проверка кода — в вашем собственном wirelab: wirelab serve)",
			Reconnect:  "переподключаюсь…",
			Written:    "Журнал записан: ",
			LogFailed:  "Журнал не записан: ",
			SecondsAgo: "%d с назад",
			MinutesAgo: "%d мин назад",
			HoursAgo:   "%d ч назад",
			JustNow:    "только что",
		}
	}
	return classroomText{
		Title:         "Join the classroom",
		Intro:         "Type the code on the instructor's screen, and the name the instructor will see you by.",
		Code:          "Code",
		Name:          "Your name",
		Join:          "Join",
		Can:           "In the classroom you can read every page, follow the instructor's session and check frame exercises against your own transcript. The instructor sees your progress only if you choose to share it. Starting servers, building code and reaching your own servers are for your own wirelab.",
		WrongCode:     "Wrong code: check it against the instructor's screen.",
		TooMany:       "Too many wrong codes from this address (others may share it, on the same Wi-Fi or behind a proxy): wait a minute and try again.",
		NoName:        "Type a name: the instructor sees it in the list.",
		Full:          "The classroom is full.",
		Lost:          "Your place in the classroom is gone (did the instructor's wirelab restart?): join again.",
		JoinedAs:      "You are in the classroom as ",
		GoOn:          "Go on",
		Classroom:     "Classroom",
		Open:          "Students open",
		TypeCode:      "and type the code",
		OrScan:        "or scan:",
		OwnWirelab:    "A student with wirelab of their own:",
		Dashboard:     "Who is here",
		Seat:          "#",
		Who:           "Name",
		Page:          "Page",
		OnOwn:         "on their own wirelab",
		Where:         "Playground",
		Here:          "this one",
		NoRoom:        "This wirelab has no classroom of its own: the list is of the followers of the other playgrounds on the same NATS server, where students join.",
		LastSeen:      "Last seen",
		Progress:      "Progress",
		WriteLog:      "Write a session log",
		LogNote:       "Nothing is written, neither names nor progress, until you press the button.",
		Nobody:        "No one has joined yet.",
		Connected:     "%d of %d connected.",
		Away:          "away",
		NotShared:     "does not share progress",
		PassedNone:    "nothing passed yet",
		Failed:        "last failure: ",
		Live:          "live",
		DashboardOnly: "the classroom's dashboard is for the instructor's machine only",
		FollowerMayNot: "in the classroom, only the instructor's machine may do this; a follower may read every page, " +
			"follow sessions and check frame exercises (hints, solutions and grading are for your own wirelab: wirelab serve)",
		Reconnect:  "reconnecting…",
		Written:    "The log is written: ",
		LogFailed:  "The log was not written: ",
		SecondsAgo: "%d s ago",
		MinutesAgo: "%d min ago",
		HoursAgo:   "%d h ago",
		JustNow:    "just now",
	}
}
