package mcp

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLoopbackRedirectIgnoresStrayVisits: a visit to the callback with
// neither code, error nor state is told it is not an answer, and the
// client goes on waiting for the authorization server's redirect, which
// it then gets.
func TestLoopbackRedirectIgnoresStrayVisits(t *testing.T) {
	l := &LoopbackRedirect{}
	defer l.Close()
	uri, err := l.URI(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		q, err := l.Visit(ctx, "http://127.0.0.1:1/authorize", nil)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- q.Encode()
	}()
	for _, visit := range []struct {
		query  string
		status int
	}{
		{"", http.StatusBadRequest},
		{"?foo=bar", http.StatusBadRequest},
		{"?code=abc&state=xyz", http.StatusOK},
	} {
		resp, err := http.Get(uri + visit.query)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != visit.status {
			t.Errorf("GET %s: %d %s, want %d", visit.query, resp.StatusCode, body, visit.status)
		}
		if visit.status == http.StatusBadRequest && !strings.Contains(string(body), "not an answer of an authorization server") {
			t.Errorf("GET %s: %s", visit.query, body)
		}
	}
	if q := <-got; q != "code=abc&state=xyz" {
		t.Errorf("the client got %q, want the authorization server's answer", q)
	}
}
