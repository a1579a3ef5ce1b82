package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Redirect carries the authorization request to whoever approves it and
// brings back the redirect: OAuth's front channel. The authorization
// server answers the request with a redirect to the client's
// redirect_uri, carrying code, state and iss in the query.
type Redirect interface {
	// URI returns the redirect_uri to register and to send.
	URI(ctx context.Context) (string, error)
	// Visit sends the user agent to authURL and returns the query of the
	// redirect that comes back. hc sends HTTP requests without following
	// redirects.
	Visit(ctx context.Context, authURL string, hc *http.Client) (url.Values, error)
}

// DirectRedirect visits the authorization endpoint itself, without a
// browser, and reads the redirect from Location: for an authorization
// server that approves without asking a person, such as the conformance
// suite's, and for tests.
type DirectRedirect struct {
	// RedirectURI is sent as redirect_uri; nothing listens there. Empty
	// means http://127.0.0.1/callback.
	RedirectURI string
}

// URI returns the redirect URI.
func (d *DirectRedirect) URI(context.Context) (string, error) {
	if d.RedirectURI == "" {
		return "http://127.0.0.1/callback", nil
	}
	return d.RedirectURI, nil
}

// Visit GETs authURL and returns the query of the Location it redirects
// to.
func (d *DirectRedirect) Visit(ctx context.Context, authURL string, hc *http.Client) (url.Values, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxAuthAnswer))
	resp.Body.Close()
	if resp.StatusCode < 300 || resp.StatusCode > 399 {
		return nil, fmt.Errorf("the authorization endpoint answered HTTP %d instead of redirecting back: it wants a person to approve (use a browser, not a direct visit)", resp.StatusCode)
	}
	loc, err := resp.Location()
	if err != nil {
		return nil, fmt.Errorf("the redirect has no usable Location: %w", err)
	}
	want, _ := d.URI(ctx)
	if !strings.HasPrefix(loc.String(), want) {
		return nil, fmt.Errorf("the authorization server redirected to %s, not to the redirect_uri %s", loc.Redacted(), want)
	}
	return loc.Query(), nil
}

// callbackPath is where LoopbackRedirect listens.
const callbackPath = "/callback"

// LoopbackRedirect is the redirect for a person at a browser on this
// machine (RFC 8252 Section 7.3, "Loopback Interface Redirection"): a
// listener on http://127.0.0.1:PORT/callback, started on first use; the
// authorization URL is printed for the person to open. Close stops it.
type LoopbackRedirect struct {
	// Out is where the authorization URL is printed.
	Out io.Writer
	// Open, if set, opens the URL in a browser.
	Open func(url string) error

	mu      sync.Mutex // guards the fields below
	uri     string
	srv     *http.Server
	answers chan url.Values // the callbacks' queries; buffered, so the handler never waits
}

// URI starts the listener if needed and returns its callback URL.
func (l *LoopbackRedirect) URI(context.Context) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.srv != nil {
		return l.uri, nil
	}
	// 127.0.0.1, not localhost: OAuth 2.1 Section 8.4.2 ("loopback
	// redirect URIs ... use the IP literal"), and never all interfaces.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("listening for the redirect: %w", err)
	}
	l.answers = make(chan url.Values, 4)
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+callbackPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		q := r.URL.Query()
		if !q.Has("code") && !q.Has("error") && !q.Has("state") {
			// A stray visit (a reload, a probe), not a redirect from
			// the authorization server, which always brings a code or
			// an error, and the state: it does not end the wait.
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintln(w, "this is not an answer of an authorization server: it has no code, error or state; wirelab still waits for one")
			return
		}
		select {
		case l.answers <- q:
		default: // more callbacks than anyone waits for: drop this one
		}
		fmt.Fprintln(w, "wirelab got the answer of the authorization server; you may close this page.")
	})
	l.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	l.uri = "http://" + ln.Addr().String() + callbackPath
	// Serves until Close shuts the server down.
	go l.srv.Serve(ln)
	return l.uri, nil
}

// Visit prints authURL, opens it when Open is set, and waits for the
// callback or ctx.
func (l *LoopbackRedirect) Visit(ctx context.Context, authURL string, _ *http.Client) (url.Values, error) {
	l.mu.Lock()
	answers := l.answers
	l.mu.Unlock()
	if answers == nil {
		return nil, errors.New("the redirect listener is not running")
	}
	if l.Out != nil {
		fmt.Fprintf(l.Out, "wirelab: open this URL in a browser to authorize:\n  %s\n", authURL)
	}
	if l.Open != nil {
		if err := l.Open(authURL); err != nil && l.Out != nil {
			fmt.Fprintf(l.Out, "wirelab: could not open a browser (%v); open the URL yourself\n", err)
		}
	}
	select {
	case q := <-answers:
		return q, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("no answer at the redirect URI: %w", ctx.Err())
	}
}

// Close stops the listener. It is safe to call more than once.
func (l *LoopbackRedirect) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.srv == nil {
		return nil
	}
	err := l.srv.Close()
	l.srv = nil
	return err
}
