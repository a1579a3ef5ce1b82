package playground

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/wirelab/wirelab/internal/classroom"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/tools"
)

// spreadClock is the time by a playground's Others: this machine's,
// moved ahead by the test.
type spreadClock struct {
	mu    sync.Mutex // guards ahead
	ahead time.Duration
}

func (c *spreadClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.ahead)
}

func (c *spreadClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ahead += d
}

// spreadPlayground is a playground on bus: a classroom with room, or,
// with room nil, the instructor's playground with no room of its own.
// It spreads its dashboard over the bus with others. Closing it is the
// returned function's, and the test's cleanup.
func spreadPlayground(t *testing.T, bus wire.Bus, room *classroom.Room, others *classroom.Others) (*testRoom, func()) {
	t.Helper()
	tr := &testRoom{room: room, logDir: t.TempDir()}
	c := &Classroom{Room: room, Others: others, LogDir: tr.logDir}
	if room != nil {
		c.JoinURLs = []string{"http://192.0.2.2:8080/join"}
	}
	pg := New(tools.New(nil), &Options{Classroom: c, Hub: &wire.HubOptions{Bus: bus}})
	tr.local = httptest.NewServer(pg)
	tr.remote = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RemoteAddr = "192.0.2.7:40000"
		pg.ServeHTTP(w, r)
	}))
	// The playground closes first: that ends the dashboards' streams, for
	// which the servers' Close would wait (a browser's may outlive it).
	var once sync.Once
	stop := func() { once.Do(func() { pg.Close(); tr.local.Close(); tr.remote.Close() }) }
	t.Cleanup(stop)
	return tr, stop
}

// spreadNATS runs a NATS server in this process until the test ends and
// returns a function that makes a new connection to it, one per
// playground, as separate processes would have.
func spreadNATS(t *testing.T) func() *wire.NATSBus {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	t.Cleanup(func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	})
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	return func() *wire.NATSBus {
		bus, err := wire.NewNATSBus(ns.ClientURL())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(bus.Close) // after the playground's cleanup, registered later
		return bus
	}
}

// dashboardFeed reads srv's dashboard stream (/classroom/events) from
// this machine. Its until reads events until one satisfies ok, and
// fails the test, with the last event, if none does within 20 seconds.
type dashboardFeed struct {
	t      *testing.T
	events *bufio.Scanner
	last   dashboardData
}

func openFeed(t *testing.T, srv *httptest.Server) *dashboardFeed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/classroom/events?lang=en", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("the dashboard's stream: %v %v", resp, err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	return &dashboardFeed{t: t, events: bufio.NewScanner(resp.Body)}
}

func (f *dashboardFeed) until(what string, ok func(dashboardData) bool) dashboardData {
	f.t.Helper()
	for f.events.Scan() {
		data, found := strings.CutPrefix(f.events.Text(), "data: ")
		if !found {
			continue
		}
		f.last = dashboardData{}
		if err := json.Unmarshal([]byte(data), &f.last); err != nil {
			f.t.Fatalf("an event that is not the room: %s", data)
		}
		if ok(f.last) {
			return f.last
		}
	}
	f.t.Fatalf("the dashboard never showed %s (%v); last:\n%+v", what, f.events.Err(), f.last)
	return dashboardData{}
}

// row is the follower named name on the dashboard, if it is there.
func row(d dashboardData, name string) (followerRow, bool) {
	for _, r := range d.Followers {
		if r.Name == name {
			return r, true
		}
	}
	return followerRow{}, false
}

// TestClassroomSpread: three playgrounds on one NATS server, each on its
// own connection as separate processes would be: classrooms A and B, and
// the instructor's, which has no room of its own. A follower who joins
// on A, shares progress, passes one exercise and fails another appears
// with that progress, marked as A's, on B's dashboard and on the
// instructor's, beside B's own follower; a message on the followers
// subject that is no snapshot changes no dashboard; and once A stops,
// its follower leaves B's dashboard when the timeout passes, not before.
func TestClassroomSpread(t *testing.T) {
	connect := spreadNATS(t)
	clock := &spreadClock{}
	roomA, roomB := classroom.New(&classroom.Options{Code: classroomCode}), classroom.New(&classroom.Options{Code: classroomCode})
	othersA := classroom.NewOthers(nil)
	a, stopA := spreadPlayground(t, connect(), roomA, othersA)
	b, _ := spreadPlayground(t, connect(), roomB, classroom.NewOthers(&classroom.OthersOptions{Now: clock.Now}))
	instructorBus := connect()
	in, _ := spreadPlayground(t, instructorBus, nil, classroom.NewOthers(nil))

	// The instructor's playground has no room of its own, so no code to
	// show; its home page leads to the dashboard all the same.
	if home := do(t, in.local, "GET", "/", "", "", ""); !strings.Contains(home.body, `<a href="/classroom">`) {
		t.Errorf("the instructor's home page (%d) has no link to the dashboard", home.code)
	}
	feedB, feedIn := openFeed(t, b.local), openFeed(t, in.local)
	ada := a.follower(t, "Ada")
	for _, body := range []string{`{"share":true}`, `{"exercise":"frames-http-auth","passed":true}`,
		`{"exercise":"frames-mcp-handshake","passed":false,"failure":"expected 4 rows, got 2"}`} {
		if got := do(t, a.remote, "POST", "/classroom/progress", "application/json", body, ada); got.code != http.StatusNoContent {
			t.Fatalf("sharing %s: %d %s", body, got.code, got.body)
		}
	}
	b.follower(t, "Grace")

	passed, failed := exerciseTitle("frames-http-auth", en), exerciseTitle("frames-mcp-handshake", en)
	hasAda := func(d dashboardData) bool {
		r, ok := row(d, "Ada")
		return ok && len(r.Passed) == 1 && r.Failure != ""
	}
	for _, f := range []struct {
		name string
		feed *dashboardFeed
	}{{"B's", feedB}, {"the instructor's", feedIn}} {
		d := f.feed.until("Ada with her progress, and Grace", func(d dashboardData) bool {
			_, grace := row(d, "Grace")
			return hasAda(d) && grace
		})
		r, _ := row(d, "Ada")
		if !r.Connected || !r.Share || r.Passed[0] != passed || r.Failed != failed || r.Failure != "expected 4 rows, got 2" {
			t.Errorf("on %s dashboard, Ada: %+v", f.name, r)
		}
		if !strings.HasSuffix(r.Where, othersA.Instance()) {
			t.Errorf("on %s dashboard, Ada is on %q, want A (%s)", f.name, r.Where, othersA.Instance())
		}
		if !d.Spread || d.Connected != 2 || len(d.Followers) != 2 {
			t.Errorf("%s dashboard: %+v, want Ada and Grace, both connected, the rows saying where", f.name, d)
		}
	}
	if r, _ := row(feedB.last, "Grace"); r.Where != "this one" || r.Share {
		t.Errorf("on B's own dashboard, Grace: %+v, want this one, not sharing", r)
	}
	if host, _ := os.Hostname(); host != "" {
		if r, _ := row(feedB.last, "Ada"); r.Where != host+" · "+othersA.Instance() {
			t.Errorf("Ada is on %q, want %q", r.Where, host+" · "+othersA.Instance())
		}
	}

	// The instructor's page: the dashboard, with no code to join, on this
	// machine only; no join page at all.
	page := do(t, in.local, "GET", "/classroom?lang=en", "", "", "")
	for _, want := range []string{"This wirelab has no classroom of its own", "<th>Playground</th>", `src="/static/classroom.js"`, "Ada"} {
		if page.code != http.StatusOK || !strings.Contains(page.body, want) {
			t.Errorf("the instructor's dashboard (%d) lacks %q", page.code, want)
		}
	}
	if strings.Contains(page.body, classroomCode) {
		t.Error("the instructor's dashboard shows a join code it does not have")
	}
	for path, code := range map[string]int{"/classroom": http.StatusForbidden, "/classroom/events": http.StatusForbidden, "/join": http.StatusNotFound} {
		if got := do(t, in.remote, "GET", path, "", "", ""); got.code != code {
			t.Errorf("GET %s from another machine, on the instructor's playground: %d, want %d", path, got.code, code)
		}
	}
	// The instructor's session log is of the whole room.
	written := do(t, in.local, "POST", "/classroom/log", "", "", "")
	var where struct{ Path string }
	json.Unmarshal([]byte(written.body), &where)
	logged, _ := os.ReadFile(where.Path)
	var l classroom.Log
	if err := json.Unmarshal(logged, &l); err != nil || len(l.Elsewhere) != 2 || len(l.Followers) != 0 {
		t.Errorf("the instructor's session log (%d): %v\n%s", written.code, err, logged)
	}

	// Messages that are no snapshot, then one that is, from a playground
	// that is no classroom's: NATS keeps one connection's order, so once
	// the last is on the dashboard, the others have come and gone.
	subject := "wirelab.room.classroom.followers"
	for _, msg := range []string{`{"instance":`, `[]`, `{"instance":"bad1","sent":"2026-01-01T00:00:00Z","followers":[{"name":""}]}`,
		`{"instance":"bad2","followers":[{"name":"Mallory"}]}`} {
		if err := instructorBus.Publish(subject, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	probe, _ := classroom.Snapshot{Instance: "probe", Sent: time.Now(), Followers: []classroom.Follower{{Seat: 1, Name: "Probe", LastSeen: time.Now()}}}.Encode()
	instructorBus.Publish(subject, probe)
	d := feedB.until("the probe", func(d dashboardData) bool { _, ok := row(d, "Probe"); return ok })
	if len(d.Followers) != 3 {
		t.Errorf("after messages that are no snapshot, B's dashboard: %+v, want Grace, Ada and the probe", d.Followers)
	}

	// A stops. Its follower stays until the timeout has passed, and then
	// leaves. (A snapshot of A's still on the way when the clock moves
	// arrives at the new time: moving it again drops that one too.)
	stopA()
	clock.advance(classroom.OthersTimeout - time.Second)
	if d := openFeed(t, b.local).until("a first event", func(dashboardData) bool { return true }); !hasAda(d) {
		t.Errorf("a second before the timeout, Ada left B's dashboard: %+v", d.Followers)
	}
	for range 5 {
		clock.advance(classroom.OthersTimeout)
		d = openFeed(t, b.local).until("a first event", func(dashboardData) bool { return true })
		if _, ok := row(d, "Ada"); !ok {
			break
		}
	}
	if _, ok := row(d, "Ada"); ok || len(d.Followers) != 1 || d.Followers[0].Name != "Grace" {
		t.Errorf("after A stopped and the timeout passed, B's dashboard: %+v, want Grace alone", d.Followers)
	}
}

// TestClassroomSpreadLocal: two playgrounds in one process on one
// in-process bus are a room too; a playground's own follower is listed
// once, as its own.
func TestClassroomSpreadLocal(t *testing.T) {
	bus := wire.NewLocalBus()
	a, _ := spreadPlayground(t, bus, classroom.New(&classroom.Options{Code: classroomCode}), classroom.NewOthers(nil))
	b, _ := spreadPlayground(t, bus, classroom.New(&classroom.Options{Code: classroomCode}), classroom.NewOthers(nil))
	a.follower(t, "Ada")
	d := openFeed(t, b.local).until("Ada", func(d dashboardData) bool { _, ok := row(d, "Ada"); return ok })
	if len(d.Followers) != 1 || d.Followers[0].Where == "this one" {
		t.Errorf("B's dashboard: %+v, want Ada, on A", d.Followers)
	}
	d = openFeed(t, a.local).until("Ada", func(d dashboardData) bool { _, ok := row(d, "Ada"); return ok })
	if len(d.Followers) != 1 || d.Followers[0].Where != "this one" {
		t.Errorf("A's own dashboard: %+v, want Ada once, on this one", d.Followers)
	}
}
