package tap

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// readLate is a response body whose first read gives the first part
// and whose second reads the request body once more past its end, as
// net/http's transport does to check that no bytes follow the
// Content-Length, possibly after the answer's head has gone to the host.
type readLate struct {
	req  io.Reader
	step int
}

func (b *readLate) Read(p []byte) (int, error) {
	b.step++
	switch b.step {
	case 1:
		return copy(p, `{"part":1,`), nil
	case 2:
		io.Copy(io.Discard, b.req)
		if _, err := b.req.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			return 0, err
		}
		return copy(p, `"part":2}`), nil
	}
	return 0, io.EOF
}

func (b *readLate) Close() error { return nil }

type lateTransport struct{}

func (lateTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: &readLate{req: r.Body}, Request: r}, nil
}

// TestProxyBodyReadLate: the upstream's side may read the host's request
// body after the answer's head has been written, when net/http has
// already closed the host's request body; the answer still passes whole.
func TestProxyBodyReadLate(t *testing.T) {
	rec := NewRecorder(nil)
	p, err := NewProxy("http://upstream.invalid/mcp", rec, &ProxyOptions{Transport: lateTransport{}})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	resp, err := http.Post(front.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(body) != `{"part":1,"part":2}` {
		t.Errorf("the host got %q, %v; want the whole answer", body, err)
	}
	for _, e := range rec.Events() {
		if e.Kind == KindHTTPEnd && e.Data != "" {
			t.Errorf("the record says %q", e.Data)
		}
		if e.Kind == KindHTTPBody && !bytes.Equal(e.Bytes(), body) {
			t.Errorf("recorded body %q, the host got %q", e.Bytes(), body)
		}
	}
}
