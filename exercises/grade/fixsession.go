package grade

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

// FixSession404 grades the fix-session-404 exercise: an MCP server over
// Streamable HTTP with sessions, given with one bug, that must tell a
// request without a session id (400) from one whose session it does not
// know (404).
func FixSession404() *Grader {
	return &Grader{
		Exercise: "fix-session-404",
		Stages: []Stage{
			{Name: "opens a session", Run: sessionOpens},
			{Name: "answers no session id with 400", Run: sessionMissing},
			{Name: "answers an unknown session with 404", Run: sessionUnknown},
			{Name: "ends a session on DELETE", Run: sessionDelete},
		},
	}
}

const (
	hintSessionHeader = `initialize opens the session: its answer carries an Mcp-Session-Id header, and every later request the session's id in the same header.`
	hintSession400    = `A request without Mcp-Session-Id (initialize aside) is incomplete: the transport says 400 Bad Request.`
	hintSession404    = `An id the server does not know, or no longer knows, is 404 Not Found: the transport says a client that gets 404 for its session id MUST start a new session with initialize. A 400 says instead that the request was malformed, and tells the client nothing about its session.`
	hintSessionDelete = `DELETE with the session's id ends the session: forget the id, so that every later request carrying it gets 404.`
)

// sessionInit is the initialize request of every stage.
const sessionInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wirelab-grader","version":"1"}}}`

// sessionAnswer is an HTTP answer, as far as the stages look at it.
type sessionAnswer struct {
	status  int
	session string // the Mcp-Session-Id header
	body    string
}

func (a sessionAnswer) String() string {
	s := fmt.Sprintf("%d %s", a.status, http.StatusText(a.status))
	if a.session != "" {
		s += " | Mcp-Session-Id: " + a.session
	}
	if a.body != "" {
		s += " | " + strings.TrimSpace(a.body)
	}
	return shorten(s)
}

// sessionDo sends one request to the server at addr.
func sessionDo(t *T, addr, method, session, body string) (sessionAnswer, error) {
	req, err := http.NewRequestWithContext(t.ctx, method, "http://"+addr+"/mcp", strings.NewReader(body))
	if err != nil {
		return sessionAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		if err := t.canceled(); err != nil {
			return sessionAnswer{}, err
		}
		return sessionAnswer{}, Failf("no answer to %s /mcp: %v", method, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody))
	return sessionAnswer{resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b)}, nil
}

// sessionSent is a request as the report shows it.
func sessionSent(method, session, body string) string {
	s := method + " /mcp"
	if session != "" {
		s += " | Mcp-Session-Id: " + session
	}
	if body != "" {
		s += " | " + body
	}
	return shorten(s)
}

// sessionOpen starts the server and opens a session; it returns the
// server's address and the session's id.
func sessionOpen(t *T) (addr, session string, err error) {
	_, addr, err = t.StartServer()
	if err != nil {
		return "", "", err
	}
	a, err := sessionDo(t, addr, http.MethodPost, "", sessionInit)
	if err != nil {
		return "", "", err
	}
	if a.status != http.StatusOK || a.session == "" {
		f := Failf("initialize did not open a session: the answer is %d with no Mcp-Session-Id header", a.status)
		f.Sent, f.Got, f.Hint = sessionSent("POST", "", sessionInit), a.String(), hintSessionHeader
		return "", "", f
	}
	return addr, a.session, nil
}

// sessionExpect sends one request and checks its status.
func sessionExpect(t *T, addr, what, method, session, body string, status int, hint string) error {
	a, err := sessionDo(t, addr, method, session, body)
	if err != nil {
		return About(err, what, sessionSent(method, session, body))
	}
	if a.status != status {
		f := Failf("%s: the answer is %d %s; %d %s was expected", what, a.status, http.StatusText(a.status), status, http.StatusText(status))
		f.Sent, f.Got, f.Hint = sessionSent(method, session, body), a.String(), hint
		return f
	}
	return nil
}

const sessionPing = `{"jsonrpc":"2.0","id":2,"method":"ping"}`

func sessionOpens(t *T) error {
	addr, sid, err := sessionOpen(t)
	if err != nil {
		return err
	}
	if err := sessionExpect(t, addr, "notifications/initialized in the session", "POST", sid, mcpInitialized, http.StatusAccepted, ""); err != nil {
		return err
	}
	return sessionExpect(t, addr, "a ping in the session", "POST", sid, sessionPing, http.StatusOK, hintSessionHeader)
}

func sessionMissing(t *T) error {
	addr, _, err := sessionOpen(t)
	if err != nil {
		return err
	}
	return sessionExpect(t, addr, "a ping without Mcp-Session-Id", "POST", "", sessionPing, http.StatusBadRequest, hintSession400)
}

func sessionUnknown(t *T) error {
	addr, _, err := sessionOpen(t)
	if err != nil {
		return err
	}
	return sessionExpect(t, addr, "a ping with a session id the server never gave", "POST", "0123456789abcdef0123456789abcdef", sessionPing, http.StatusNotFound, hintSession404)
}

func sessionDelete(t *T) error {
	addr, sid, err := sessionOpen(t)
	if err != nil {
		return err
	}
	a, err := sessionDo(t, addr, http.MethodDelete, sid, "")
	if err != nil {
		return err
	}
	if a.status < 200 || a.status > 299 {
		f := Failf("DELETE of the session: the answer is %d %s, not a success", a.status, http.StatusText(a.status))
		f.Got, f.Hint = a.String(), hintSessionDelete
		return f
	}
	err = sessionExpect(t, addr, "a ping in the session after its DELETE", "POST", sid, sessionPing, http.StatusNotFound, hintSessionDelete)
	return hideSession(err, sid)
}

// hideSession replaces a random session id in a failure with SESSION,
// so that reports are the same from one run to the next.
func hideSession(err error, sid string) error {
	if f, ok := err.(*Failure); ok {
		hide := func(s string) string { return strings.ReplaceAll(s, sid, "SESSION") }
		f.Summary, f.SummaryRU, f.Sent, f.Got = hide(f.Summary), hide(f.SummaryRU), hide(f.Sent), hide(f.Got)
	}
	return err
}
