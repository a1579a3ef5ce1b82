package classroom

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a time that a test moves by hand.
type clock struct {
	mu sync.Mutex // guards t
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newOthers is an Others on c, with a seeded name.
func newOthers(c *clock, seed uint64) *Others {
	return NewOthers(&OthersOptions{Now: c.Now, Rand: pcgReader{rand.NewPCG(seed, 1)}})
}

// encoded is s as it goes on the bus.
func encoded(t *testing.T, s Snapshot) []byte {
	t.Helper()
	b, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOthers: a snapshot of another playground's room arrives whole,
// with what each follower shares and no more, and its times moved to
// this machine's clock, an hour ahead of the sender's; this playground's
// own snapshot is not another's.
func TestOthers(t *testing.T) {
	r := seeded("K7P2QX")
	ada, _ := r.Join("192.0.2.1", "K7P2QX", "Ada")
	r.Join("192.0.2.2", "K7P2QX", "Grace")
	r.Share(ada, true)
	r.Record(ada, "frames-stdio", true, "")
	r.Record(ada, "frames-mcp", false, "expected 4 rows")
	r.Seen(ada, "/learn/stdio")
	sent := r.Snapshot("a1b2c3", "lab-1")

	c := &clock{t: sent.Sent.Add(time.Hour)}
	o := newOthers(c, 1)
	changed := o.Changed()
	if !o.Receive(encoded(t, sent)) {
		t.Fatal("a snapshot of another playground was not kept")
	}
	select {
	case <-changed:
	default:
		t.Error("a snapshot kept did not close Changed")
	}
	got := o.Snapshots()
	if len(got) != 1 || got[0].Instance != "a1b2c3" || got[0].Host != "lab-1" || len(got[0].Followers) != 2 {
		t.Fatalf("snapshots: %+v", got)
	}
	a, g := got[0].Followers[0], got[0].Followers[1]
	if a.Name != "Ada" || a.Page != "/learn/stdio" || !a.Share || len(a.Passed) != 1 || a.Passed[0].Exercise != "frames-stdio" ||
		a.Failure == nil || a.Failure.Message != "expected 4 rows" {
		t.Errorf("Ada, as the other playground told: %+v", a)
	}
	if g.Name != "Grace" || g.Share || g.Passed != nil || g.Failure != nil {
		t.Errorf("Grace, who shares nothing: %+v", g)
	}
	if local, _ := r.Follower(ada); !a.LastSeen.Equal(local.LastSeen.Add(time.Hour)) || !a.ConnectedAt(c.Now()) {
		t.Errorf("Ada last seen %v by this clock, want %v (the sender's %v, an hour behind)", a.LastSeen, local.LastSeen.Add(time.Hour), local.LastSeen)
	}
	got[0].Followers[0].Passed[0].Exercise = "changed"
	if o.Snapshots()[0].Followers[0].Passed[0].Exercise != "frames-stdio" {
		t.Error("a copy from Snapshots changed Others")
	}

	own := r.Snapshot(o.Instance(), "here")
	if o.Receive(encoded(t, own)) || len(o.Snapshots()) != 1 {
		t.Errorf("this playground's own snapshot was kept as another's: %+v", o.Snapshots())
	}
}

// TestOthersTimeout: a playground that stops sending snapshots leaves
// after OthersTimeout, and one that keeps sending stays.
func TestOthersTimeout(t *testing.T) {
	c := &clock{t: time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)}
	o := newOthers(c, 1)
	beat := func(instance string) {
		t.Helper()
		s := Snapshot{Instance: instance, Sent: c.Now(), Followers: []Follower{{Seat: 1, Name: "Ada", LastSeen: c.Now()}}}
		if !o.Receive(encoded(t, s)) {
			t.Fatalf("a snapshot of %s was not kept", instance)
		}
	}
	names := func() string {
		var ns []string
		for _, s := range o.Snapshots() {
			ns = append(ns, s.Instance)
		}
		return strings.Join(ns, " ")
	}
	beat("quiet")
	beat("steady")
	for range 3 {
		c.advance(Heartbeat)
		beat("steady")
	}
	if got := names(); got != "quiet steady" {
		t.Errorf("at %v, exactly the timeout: %q, want both", OthersTimeout, got)
	}
	c.advance(time.Second)
	if got := names(); got != "steady" {
		t.Errorf("a second past the timeout: %q, want the quiet one gone", got)
	}
}

// TestOthersBounded: at most MaxOthers playgrounds are kept; a new one
// finds a place once one has fallen silent.
func TestOthersBounded(t *testing.T) {
	c := &clock{t: time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)}
	o := newOthers(c, 1)
	send := func(instance string) bool {
		return o.Receive(encoded(t, Snapshot{Instance: instance, Sent: c.Now()}))
	}
	for i := range MaxOthers {
		if !send(fmt.Sprintf("p%d", i)) {
			t.Fatalf("playground %d of %d was refused", i+1, MaxOthers)
		}
	}
	if send("extra") {
		t.Fatalf("a playground past %d was kept", MaxOthers)
	}
	if !send("p0") {
		t.Error("a playground already kept was refused its next snapshot")
	}
	c.advance(OthersTimeout / 2)
	send("p0") // p0 keeps sending; the others fall silent
	c.advance(OthersTimeout/2 + time.Second)
	if !send("extra") {
		t.Error("a new playground was refused once the others had fallen silent")
	}
	if got := len(o.Snapshots()); got != 2 {
		t.Errorf("%d snapshots kept, want p0 and extra", got)
	}
}

// TestMalformedSnapshots: a message that is no snapshot, or breaks the
// room's bounds, is ignored, and leaves what was kept as it was;
// anything within them is cut as the room cuts its own.
func TestMalformedSnapshots(t *testing.T) {
	c := &clock{t: time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)}
	sent := c.Now().Format(time.RFC3339Nano)
	many := make([]Follower, MaxFollowers+1)
	for i := range many {
		many[i] = Follower{Seat: i + 1, Name: "x"}
	}
	tooMany, _ := json.Marshal(Snapshot{Instance: "p1", Sent: c.Now(), Followers: many})
	passes := make([]Pass, maxPassed+1)
	for i := range passes {
		passes[i] = Pass{Exercise: fmt.Sprint(i)}
	}
	tooManyPasses, _ := json.Marshal(Snapshot{Instance: "p1", Sent: c.Now(), Followers: []Follower{{Name: "x", Share: true, Passed: passes}}})
	for _, tt := range []struct{ name, msg string }{
		{"not JSON", `{"instance":`},
		{"an array", `[1,2,3]`},
		{"a string", `"followers"`},
		{"no name", `{"sent":"` + sent + `","followers":[]}`},
		{"a name with spaces", `{"instance":"a b","sent":"` + sent + `"}`},
		{"a name too long", `{"instance":"` + strings.Repeat("a", maxInstance+1) + `","sent":"` + sent + `"}`},
		{"no time", `{"instance":"p1","followers":[]}`},
		{"a time that is no time", `{"instance":"p1","sent":"yesterday"}`},
		{"followers not a list", `{"instance":"p1","sent":"` + sent + `","followers":{"name":"Ada"}}`},
		{"a follower without a name", `{"instance":"p1","sent":"` + sent + `","followers":[{"seat":1,"name":" \u0007 "}]}`},
		{"more followers than a room holds", string(tooMany)},
		{"more exercises passed than a follower may list", string(tooManyPasses)},
		{"longer than a snapshot may be", `{"instance":"p1","sent":"` + sent + `","host":"` + strings.Repeat("a", MaxSnapshot) + `"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := newOthers(c, 1)
			good := Snapshot{Instance: "p1", Sent: c.Now(), Followers: []Follower{{Seat: 1, Name: "Ada"}}}
			o.Receive(encoded(t, good))
			if o.Receive([]byte(tt.msg)) {
				t.Fatalf("kept %.200s", tt.msg)
			}
			if got := o.Snapshots(); len(got) != 1 || len(got[0].Followers) != 1 || got[0].Followers[0].Name != "Ada" {
				t.Errorf("what was kept changed: %+v", got)
			}
		})
	}

	t.Run("cut to the room's bounds", func(t *testing.T) {
		o := newOthers(c, 1)
		long := Follower{Seat: 1, Name: "  Ada\n" + strings.Repeat("a", 2*MaxName), Page: "/" + strings.Repeat("p", 2*MaxPage),
			Share: true, Failure: &Failure{Exercise: "frames-mcp", Message: strings.Repeat("m", 2*MaxFailure)}}
		hidden := Follower{Seat: 2, Name: "Grace", Passed: []Pass{{Exercise: "frames-mcp"}}, Failure: &Failure{Exercise: "frames-mcp", Message: "secret"}}
		if !o.Receive(encoded(t, Snapshot{Instance: "p1", Host: " lab-1\n", Sent: c.Now(), Followers: []Follower{long, hidden}})) {
			t.Fatal("a snapshot within the bounds, but for its lengths, was refused")
		}
		s := o.Snapshots()[0]
		a, g := s.Followers[0], s.Followers[1]
		if len([]rune(a.Name)) != MaxName || strings.ContainsAny(a.Name, "\n") || len(a.Page) != MaxPage || len(a.Failure.Message) != MaxFailure {
			t.Errorf("Ada, cut: name %q, page of %d bytes, failure of %d", a.Name, len(a.Page), len(a.Failure.Message))
		}
		if g.Passed != nil || g.Failure != nil {
			t.Errorf("Grace shares nothing, yet shows %+v %+v", g.Passed, g.Failure)
		}
		if s.Host != "lab-1" {
			t.Errorf("host %q, want lab-1", s.Host)
		}
	})
}

// TestSnapshotTooLarge: a snapshot past MaxSnapshot is not sent.
func TestSnapshotTooLarge(t *testing.T) {
	fs := make([]Follower, 1000)
	for i := range fs {
		fs[i] = Follower{Name: "x", Page: strings.Repeat("\x01", 2000)}
	}
	if _, err := (Snapshot{Instance: "p1", Sent: time.Now(), Followers: fs}).Encode(); err == nil {
		t.Error("a snapshot past MaxSnapshot was encoded")
	}
}
