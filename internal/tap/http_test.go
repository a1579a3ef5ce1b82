package tap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// TestEventsAfterALongEvent: an event longer than the record keeps is
// recorded cut short, with its real size, and the events after it are
// recorded too, each whole, however the stream's reads fall, CRLFs
// included.
func TestEventsAfterALongEvent(t *testing.T) {
	long := "data: " + strings.Repeat("x", 500)
	stream := long + "\n\nid: 1\ndata: one\n\r\nid: 2\r\ndata: two\r\n\r\n: note\n\nid: 3\ndata: three\n\n"
	for _, chunk := range []int{1, 7, 4096} {
		rec := NewRecorder(&RecorderOptions{MaxData: 100})
		b := &bodyRecorder{ReadCloser: io.NopCloser(iotestChunks(stream, chunk)), rec: rec, sse: true}
		if got, err := io.ReadAll(b); err != nil || string(got) != stream {
			t.Fatalf("chunks of %d: passed %d bytes, %v", chunk, len(got), err)
		}
		var got []string
		for _, e := range rec.Events() {
			if e.Kind == KindSSEEvent {
				got = append(got, fmt.Sprintf("%d %v %v %q", e.Size, e.Truncated, e.NoEOL, e.Data))
			}
		}
		want := []string{
			fmt.Sprintf("%d true false %q", len(long)+2, long[:100]),
			`18 false false "id: 1\ndata: one"`,
			`20 false false "id: 2\r\ndata: two"`,
			`8 false false ": note"`,
			`19 false false "id: 3\ndata: three"`,
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("chunks of %d: events (-want +got):\n%s", chunk, d)
		}
	}
}

// iotestChunks reads s at most n bytes at a time.
func iotestChunks(s string, n int) io.Reader {
	return &chunked{s: s, n: n}
}

type chunked struct {
	s string
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}
