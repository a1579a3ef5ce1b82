package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/classroom"
	"github.com/wirelab/wirelab/playground"
	"github.com/wirelab/wirelab/playground/wire"
)

// joinTimeout bounds the join of `wirelab serve --follow`: one POST to a
// machine in the same room, which answers in milliseconds or not at all.
const joinTimeout = 15 * time.Second

// followerCookieName is the cookie the instructor's playground sets on a
// follower who joined (playground/classroom.go), and wants back.
const followerCookieName = "wirelab-follower"

// instructor is the instructor's playground that `wirelab serve
// --follow` joined: where its presenter is followed, and with what.
type instructor struct {
	joinURL string      // the join page, without the code
	wsURL   string      // ws://HOST:PORT/ws?watch=presenter
	header  http.Header // the follower's cookie, and the instructor's own Origin

	// join, code and name join again: a classroom restarted with the
	// same code has forgotten the cookie, not the code.
	join       *url.URL
	code, name string
}

// followTarget reads --follow's JOIN_URL, which may carry the code
// (?code=XXXX, as the instructor's terminal and home page print it);
// code, from --code, is used when it does not.
func followTarget(joinURL, code string) (*url.URL, string, error) {
	u, err := url.Parse(joinURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, "", usageErrorf("--follow wants the join URL the instructor's wirelab printed, such as http://192.168.1.20:8080/join?code=K7P2QX; got %q", joinURL)
	}
	if c := u.Query().Get("code"); c != "" && code == "" {
		code = c
	}
	if classroom.NormalizeCode(code) == "" {
		return nil, "", usageErrorf("--follow needs the join code: add ?code=XXXX to the URL, or --code XXXX")
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/join"
	}
	u.RawQuery, u.Fragment = "", ""
	return u, code, nil
}

// defaultName is the name a student who gives no --name is listed by on
// the instructor's dashboard: the login name, else the machine's name.
func defaultName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if h, err := os.Hostname(); err == nil {
		return h
	}
	return "student"
}

// joinInstructor posts the join form to the instructor's playground, as
// a student's browser would, and keeps the follower cookie it sets.
// Each refusal is said in the words the join page uses.
func joinInstructor(ctx context.Context, u *url.URL, code, name string) (*instructor, error) {
	ctx, cancel := context.WithTimeout(ctx, joinTimeout)
	defer cancel()
	form := url.Values{"code": {code}, "name": {name}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	// The join answers 303 to the page to go on to: the cookie is in
	// that answer, and nothing after it is wanted.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("joining the classroom at %s: %w", u, err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // the form again, when refused: its words are below
	switch resp.StatusCode {
	case http.StatusSeeOther:
	case http.StatusForbidden:
		return nil, fmt.Errorf("the classroom at %s refused the code %s: check it against the instructor's screen", u, code)
	case http.StatusTooManyRequests:
		return nil, fmt.Errorf("the classroom at %s refused too many wrong codes from this address (perhaps from others sharing it): wait a minute and try again", u)
	case http.StatusBadRequest:
		return nil, fmt.Errorf("the classroom at %s wants a name: --name YOUR-NAME", u)
	case http.StatusServiceUnavailable:
		return nil, fmt.Errorf("the classroom at %s is full", u)
	case http.StatusNotFound:
		return nil, fmt.Errorf("%s is no classroom's join page (404): is the instructor's wirelab running with --classroom?", u)
	default:
		return nil, fmt.Errorf("joining the classroom at %s: %s", u, resp.Status)
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == followerCookieName {
			cookie = c
		}
	}
	if cookie == nil {
		return nil, fmt.Errorf("the classroom at %s let us in but set no %s cookie: is it a wirelab?", u, followerCookieName)
	}
	origin := u.Scheme + "://" + u.Host
	ws := map[string]string{"http": "ws", "https": "wss"}[u.Scheme] + "://" + u.Host + "/ws?watch=presenter"
	return &instructor{joinURL: u.String(), wsURL: ws, header: http.Header{
		"Cookie": {(&http.Cookie{Name: followerCookieName, Value: cookie.Value}).String()},
		"Origin": {origin},
	}, join: u, code: code, name: name}, nil
}

// followPage is the page a student who follows a classroom opens: the
// instructor's presenter beside the student's own console.
const followPage = "/console/mcp?watch=instructor"

// following relays the instructor's presenter into pg until ctx ends or
// pg closes, saying on stderr each time the connection comes or goes.
// The returned wait returns once the relay has stopped.
func following(ctx context.Context, pg *playground.Playground, in *instructor, stderr io.Writer) (wait func()) {
	done := make(chan struct{})
	// This goroutine ends when ctx ends or pg closes: FollowRemote
	// returns then.
	go func() {
		defer close(done)
		err := pg.FollowRemote(ctx, in.wsURL, in.header, func(r wire.RelayReport) {
			switch {
			case r.Connected:
				fmt.Fprintf(stderr, "wirelab: following the classroom at %s\n", in.joinURL)
			case r.Err != nil && strings.Contains(r.Err.Error(), "401"):
				// The instructor's wirelab restarted and forgot the
				// cookie. With the same code, join again: the next dial,
				// after r.Wait, carries the new cookie (FollowRemote reads
				// the header at each dial, and calls report between).
				again, err := joinInstructor(ctx, in.join, in.code, in.name)
				if err != nil {
					fmt.Fprintf(stderr, "wirelab: the classroom at %s no longer knows this wirelab, and joining again failed (%v): "+
						"if the instructor's code changed, run wirelab serve --follow again with the new one; trying again in %s\n", in.joinURL, err, r.Wait)
					break
				}
				in.header.Set("Cookie", again.header.Get("Cookie"))
				fmt.Fprintf(stderr, "wirelab: the classroom at %s restarted; joined it again as %s\n", in.joinURL, in.name)
			default:
				fmt.Fprintf(stderr, "wirelab: lost the classroom at %s (%v); trying again in %s\n", in.joinURL, r.Err, r.Wait)
			}
		})
		if err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "wirelab: cannot follow the classroom: %v\n", err)
		}
	}()
	return func() { <-done }
}
