package classroom

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// seeded is a room whose code and ids come from a seeded source, so that
// a failure repeats.
func seeded(code string) *Room {
	return New(&Options{Code: code, Rand: pcgReader{rand.NewPCG(1, 2)}})
}

// pcgReader reads the bytes of a seeded generator, without end.
type pcgReader struct{ *rand.PCG }

func (p pcgReader) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(p.Uint64())
	}
	return len(b), nil
}

func TestCode(t *testing.T) {
	r := seeded("")
	code := r.Code()
	if len(code) != CodeLength {
		t.Fatalf("code %q: %d characters, want %d", code, len(code), CodeLength)
	}
	for _, c := range code {
		if !strings.ContainsRune(codeAlphabet, c) {
			t.Errorf("code %q has %q, outside the alphabet %s", code, c, codeAlphabet)
		}
	}
	if strings.ContainsAny(codeAlphabet, "01OIL") {
		t.Errorf("the alphabet %s holds a character a room misreads", codeAlphabet)
	}
	if other := New(nil).Code(); len(other) != CodeLength {
		t.Errorf("a room from crypto/rand has code %q", other)
	}
}

func TestJoin(t *testing.T) {
	for _, tt := range []struct {
		name, code, person string
		want               error
	}{
		{"right code", "K7P2QX", "Ada", nil},
		{"typed in lower case, with a dash and spaces", " k7p-2qx ", "Ada", nil},
		{"wrong code", "K7P2QY", "Ada", ErrWrongCode},
		{"no code", "", "Ada", ErrWrongCode},
		{"no name", "K7P2QX", " \t ", ErrNoName},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := seeded("K7P2QX")
			id, err := r.Join("192.0.2.1", tt.code, tt.person)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Join = %q, %v; want error %v", id, err, tt.want)
			}
			_, known := r.Follower(id)
			if known != (tt.want == nil) {
				t.Errorf("after Join = %v, the room knows the id: %v", err, known)
			}
			if tt.want == nil && len(id) != 2*idBytes {
				t.Errorf("id %q: want %d hex digits", id, 2*idBytes)
			}
		})
	}
}

// TestForgedIDs: only an id the room gave out is a follower.
func TestForgedIDs(t *testing.T) {
	r := seeded("K7P2QX")
	id, err := r.Join("192.0.2.1", "K7P2QX", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	other := seeded("K7P2QX") // the same seed: the same first id, in another room
	for _, forged := range []string{"", "0", strings.Repeat("0", 2*idBytes), id[:len(id)-1], id + "0", strings.ToUpper(id)} {
		if _, ok := r.Follower(forged); ok {
			t.Errorf("Follower(%q) is known", forged)
		}
		if r.Seen(forged, "/") || r.Share(forged, true) || r.Record(forged, "x", true, "") {
			t.Errorf("a change by %q was accepted", forged)
		}
	}
	if _, ok := other.Follower(id); ok {
		t.Errorf("another room knows this room's id")
	}
}

func TestRateLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := seeded("K7P2QX")
		for i := range wrongCodes {
			if _, err := r.Join("192.0.2.1", "AAAAAA", "Eve"); !errors.Is(err, ErrWrongCode) {
				t.Fatalf("wrong code %d: %v, want ErrWrongCode", i+1, err)
			}
		}
		// Past the limit, even the right code is refused from that address.
		if _, err := r.Join("192.0.2.1", "K7P2QX", "Eve"); !errors.Is(err, ErrTooManyTries) {
			t.Fatalf("right code after %d wrong ones: %v, want ErrTooManyTries", wrongCodes, err)
		}
		// Another address is not affected.
		if _, err := r.Join("192.0.2.2", "K7P2QX", "Ada"); err != nil {
			t.Fatalf("another address: %v", err)
		}
		time.Sleep(wrongCodeWindow - time.Second)
		if _, err := r.Join("192.0.2.1", "K7P2QX", "Eve"); !errors.Is(err, ErrTooManyTries) {
			t.Fatalf("just before the window passes: %v, want ErrTooManyTries", err)
		}
		time.Sleep(time.Second)
		if _, err := r.Join("192.0.2.1", "K7P2QX", "Eve"); err != nil {
			t.Fatalf("once the window passed: %v", err)
		}
	})
}

// TestRateLimitBounded: a flood from more addresses than are counted is
// refused, not forgotten, until the windows pass.
func TestRateLimitBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := seeded("K7P2QX")
		for i := range maxAddresses {
			if _, err := r.Join(addr(i), "AAAAAA", "x"); !errors.Is(err, ErrWrongCode) {
				t.Fatalf("address %d: %v", i, err)
			}
		}
		if _, err := r.Join(addr(maxAddresses), "AAAAAA", "x"); !errors.Is(err, ErrTooManyTries) {
			t.Fatalf("one address more: %v, want ErrTooManyTries", err)
		}
		if n := len(r.tries); n > maxAddresses {
			t.Fatalf("%d addresses counted, at most %d", n, maxAddresses)
		}
		time.Sleep(wrongCodeWindow)
		if _, err := r.Join(addr(maxAddresses), "AAAAAA", "x"); !errors.Is(err, ErrWrongCode) {
			t.Fatalf("once the windows passed: %v, want ErrWrongCode", err)
		}
	})
}

// addr is the i-th address of 10.0.0.0/8.
func addr(i int) string { return fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255) }

func TestFull(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := seeded("K7P2QX")
		var first string
		for i := range MaxFollowers {
			id, err := r.Join("192.0.2.1", "K7P2QX", "student")
			if err != nil {
				t.Fatalf("follower %d: %v", i+1, err)
			}
			if i == 0 {
				first = id
				time.Sleep(time.Second) // the first is the one unseen longest
			}
		}
		if _, err := r.Join("192.0.2.1", "K7P2QX", "late"); !errors.Is(err, ErrFull) {
			t.Fatalf("one more than %d: %v, want ErrFull", MaxFollowers, err)
		}
		time.Sleep(forgetAfter)
		// Everyone is now unseen for at least forgetAfter; the one unseen
		// longest (the first) gives way.
		late, err := r.Join("192.0.2.1", "K7P2QX", "late")
		if err != nil {
			t.Fatalf("after forgetAfter: %v", err)
		}
		if _, ok := r.Follower(first); ok {
			t.Errorf("the follower unseen longest is still in the room")
		}
		if f, _ := r.Follower(late); f.Seat != MaxFollowers+1 {
			t.Errorf("the newcomer's seat is %d, want %d", f.Seat, MaxFollowers+1)
		}
		if n := len(r.Followers()); n != MaxFollowers {
			t.Errorf("%d followers, want %d", n, MaxFollowers)
		}
	})
}

func TestCleanName(t *testing.T) {
	for in, want := range map[string]string{
		"  Ada   Lovelace ":           "Ada Lovelace",
		"Ada\x00\x1b[31mred":          "Ada [31mred",
		"Мария\tИванова":              "Мария Иванова",
		strings.Repeat("я", 100):      strings.Repeat("я", MaxName),
		"\n\r\t":                      "",
		"a" + strings.Repeat(" ", 50): "a",
	} {
		if got := CleanName(in); got != want {
			t.Errorf("CleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestProgress: nothing is kept without opt-in; a pass clears that
// exercise's failure; opting out forgets what was shared.
func TestProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := seeded("K7P2QX")
		id, _ := r.Join("192.0.2.1", "K7P2QX", "Ada")
		t0 := time.Now()

		r.Record(id, "frames-stdio", true, "")
		if f, _ := r.Follower(id); f.Share || f.Passed != nil || f.Failure != nil {
			t.Fatalf("progress kept without opt-in: %+v", f)
		}

		r.Share(id, true)
		time.Sleep(time.Second)
		r.Record(id, "frames-mcp", false, "step 2: no notifications/initialized")
		r.Record(id, "frames-stdio", true, "")
		time.Sleep(time.Second)
		r.Record(id, "frames-stdio", true, "") // a second pass keeps the first's time
		f, _ := r.Follower(id)
		want := Follower{Seat: 1, Name: "Ada", Joined: t0, LastSeen: t0.Add(2 * time.Second), Share: true,
			Passed:  []Pass{{"frames-stdio", t0.Add(time.Second)}},
			Failure: &Failure{"frames-mcp", "step 2: no notifications/initialized", t0.Add(time.Second)}}
		if diff := cmp.Diff(want, f); diff != "" {
			t.Fatalf("after a failure and a pass (-want +got):\n%s", diff)
		}

		r.Record(id, "frames-mcp", true, "")
		if f, _ := r.Follower(id); f.Failure != nil || len(f.Passed) != 2 {
			t.Errorf("passing the failed exercise: %+v, want no failure and two passes", f)
		}
		r.Record(id, "frames-http", false, strings.Repeat("x", 2*MaxFailure))
		if f, _ := r.Follower(id); len(f.Failure.Message) != MaxFailure {
			t.Errorf("a failure of %d bytes is kept whole", 2*MaxFailure)
		}

		r.Share(id, false)
		if f, _ := r.Follower(id); f.Passed != nil || f.Failure != nil {
			t.Errorf("opting out kept %+v", f)
		}
		r.Share(id, true)
		r.Record(id, "frames-stdio", true, "")
		if f, _ := r.Follower(id); len(f.Passed) != 1 {
			t.Errorf("after opting in again, passes: %+v, want the one since", f.Passed)
		}
	})
}

// TestSnapshotsShareNothing: what Followers returns cannot change the room.
func TestSnapshotsShareNothing(t *testing.T) {
	r := seeded("K7P2QX")
	id, _ := r.Join("192.0.2.1", "K7P2QX", "Ada")
	r.Share(id, true)
	r.Record(id, "frames-stdio", true, "")
	r.Record(id, "frames-mcp", false, "no")
	fs := r.Followers()
	fs[0].Passed[0].Exercise = "changed"
	fs[0].Failure.Message = "changed"
	if f, _ := r.Follower(id); f.Passed[0].Exercise != "frames-stdio" || f.Failure.Message != "no" {
		t.Errorf("a snapshot changed the room: %+v", f)
	}
}

func TestChanged(t *testing.T) {
	r := seeded("K7P2QX")
	ch := r.Changed()
	select {
	case <-ch:
		t.Fatal("Changed is closed before any change")
	default:
	}
	if _, err := r.Join("192.0.2.1", "AAAAAA", "Eve"); err == nil {
		t.Fatal("a wrong code joined")
	}
	select {
	case <-ch:
		t.Fatal("a refused join changed the room")
	default:
	}
	id, _ := r.Join("192.0.2.1", "K7P2QX", "Ada")
	select {
	case <-ch:
	default:
		t.Fatal("a join did not close Changed")
	}
	ch = r.Changed()
	r.Seen(id, "/learn/")
	select {
	case <-ch:
	default:
		t.Fatal("Seen did not close Changed")
	}
}

func TestLog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := seeded("K7P2QX")
		id, _ := r.Join("192.0.2.1", "K7P2QX", "Ada")
		r.Join("192.0.2.2", "K7P2QX", "Grace")
		r.Share(id, true)
		r.Record(id, "frames-stdio", true, "")
		time.Sleep(time.Minute)
		l := r.Log()
		if !l.Written.Equal(l.Started.Add(time.Minute)) || len(l.Followers) != 2 ||
			l.Followers[0].Name != "Ada" || len(l.Followers[0].Passed) != 1 || l.Followers[1].Passed != nil {
			t.Errorf("log: %+v", l)
		}
	})
}

// TestSeenOwn: a follower's own wirelab says it is there: the follower
// is seen now, on their own wirelab, with no page; a page of the same
// follower reporting its path makes it a page's again.
func TestSeenOwn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := seeded("K7P2QX")
		id, _ := r.Join("192.0.2.1", "K7P2QX", "Ada")
		r.Seen(id, "/learn/")
		time.Sleep(time.Minute)
		if !r.SeenOwn(id) {
			t.Fatal("SeenOwn does not know the follower")
		}
		f, _ := r.Follower(id)
		if !f.Own || f.Page != "" || !f.ConnectedAt(time.Now()) {
			t.Errorf("after SeenOwn: %+v, want own, no page, connected", f)
		}
		r.Seen(id, "/console/mcp")
		if f, _ := r.Follower(id); f.Own || f.Page != "/console/mcp" {
			t.Errorf("after a page's report: %+v", f)
		}
		if r.SeenOwn("forged") {
			t.Error("SeenOwn knows a forged id")
		}
	})
}

// TestRejoin: one who joined already and joins again with their id keeps
// their seat, id and progress under the new name, as one follower; a
// wrong code is still wrong; an id the room does not know joins afresh.
func TestRejoin(t *testing.T) {
	r := seeded("K7P2QX")
	id, err := r.Join("192.0.2.1", "K7P2QX", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	r.Share(id, true)
	r.Record(id, "stdio-server", true, "")
	again, err := r.Rejoin(id, "192.0.2.1", "k7p2-qx", "Ada L.")
	if err != nil || again != id {
		t.Fatalf("Rejoin: %q, %v; want the same id", again, err)
	}
	fs := r.Followers()
	if len(fs) != 1 || fs[0].Name != "Ada L." || fs[0].Seat != 1 || len(fs[0].Passed) != 1 {
		t.Errorf("followers after joining again: %+v; want one, seat 1, renamed, progress kept", fs)
	}
	if _, err := r.Rejoin(id, "192.0.2.1", "AAAAAA", "Ada"); !errors.Is(err, ErrWrongCode) {
		t.Errorf("Rejoin with a wrong code: %v", err)
	}
	if other, err := r.Rejoin("forged", "192.0.2.2", "K7P2QX", "Grace"); err != nil || other == id || other == "forged" || len(r.Followers()) != 2 {
		t.Errorf("Rejoin with an unknown id: %q, %v, %d followers; want a new follower", other, err, len(r.Followers()))
	}
}
