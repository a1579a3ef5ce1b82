package tap

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// httpExchange is one recorded exchange, and what the replay got for it.
type httpExchange struct {
	req      Event
	status   int
	header   http.Header
	messages []recordedMessage // the body, or each event's data
	endSeq   int               // the seq of its end; 0 if it never ended

	done     chan struct{} // closed when the replayed exchange is over
	gotCode  int
	gotHead  http.Header
	gotBody  [][]byte
	gotError error
}

// ReplayHTTP sends the host's requests of an HTTP recording to the
// server at base, each to the path the tap sent it to (destination), and
// compares the answers. A request goes out once every
// exchange that had ended before it in the recording has ended in the
// replay (or wait has passed); exchanges still open then (an event
// stream) run beside it, as they did. Session ids are mapped from the
// recorded ones to those the fresh server gives, and so are the ids it
// generates (an A2A task's), where a later request names one. A masked Authorization
// header is sent as "Bearer token" when token is set, else left out.
func ReplayHTTP(ctx context.Context, events []Event, base string, wait time.Duration, token string, client *http.Client) ([]Difference, error) {
	if wait <= 0 {
		wait = DefaultWait
	}
	if client == nil {
		client = &http.Client{Transport: &http.Transport{DisableCompression: true}}
	}
	target, err := url.Parse(base)
	if err != nil || target.Host == "" {
		return nil, fmt.Errorf("replay: %q is not a URL", base)
	}
	dest := &destination{target: target}
	if len(events) > 0 && events[0].Kind == KindStart {
		if up, err := url.Parse(events[0].Upstream); err == nil {
			dest.upstreamPath = up.Path
		}
	}
	exchanges, order := collectExchanges(events)
	ids := &idMap{}
	for _, n := range order {
		for _, m := range exchanges[n].messages {
			if id, ok := serverRequestID(m.data); ok {
				ids.addRecorded(id)
			}
		}
	}
	gens := newGenMap()
	for _, n := range order {
		for _, m := range exchanges[n].messages {
			gens.addRecorded(m.data)
		}
	}
	sessions := &sessionMap{m: map[string]string{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i, n := range order {
		x := exchanges[n]
		// Wait for every earlier exchange that had ended before this
		// request went out.
		for _, m := range order[:i] {
			if y := exchanges[m]; y.endSeq != 0 && y.endSeq < x.req.Seq {
				waitFor(ctx, y.done, wait)
			}
		}
		wg.Add(1)
		// Ends when the exchange's answer has been read, or ctx is
		// cancelled (when the replay is over).
		go func() {
			defer wg.Done()
			defer close(x.done)
			x.replay(ctx, client, dest, sessions, ids, gens, token)
		}()
	}
	for _, n := range order {
		if x := exchanges[n]; x.endSeq != 0 {
			waitFor(ctx, x.done, wait)
		}
	}
	cancel() // streams still open were open at the end of the recording too
	wg.Wait()

	var diffs []Difference
	for _, n := range order {
		diffs = append(diffs, exchanges[n].compare(target.Host)...)
	}
	return diffs, nil
}

func waitFor(ctx context.Context, done <-chan struct{}, wait time.Duration) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-ctx.Done():
	}
}

// collectExchanges gathers each exchange's events, in the order of its
// request.
func collectExchanges(events []Event) (map[int]*httpExchange, []int) {
	exchanges := map[int]*httpExchange{}
	var order []int
	for _, e := range events {
		if e.Exchange == 0 {
			continue
		}
		x := exchanges[e.Exchange]
		switch e.Kind {
		case KindHTTPRequest:
			x = &httpExchange{req: e, done: make(chan struct{})}
			exchanges[e.Exchange] = x
			order = append(order, e.Exchange)
		case KindHTTPResponse:
			if x != nil {
				x.status, x.header = e.Status, e.Header
			}
		case KindHTTPBody:
			if x != nil && !e.Truncated {
				x.messages = append(x.messages, recordedMessage{e.Seq, e.Bytes()})
			}
		case KindSSEEvent:
			if data, ok := eventData(e.Bytes()); x != nil && ok && !e.Truncated {
				x.messages = append(x.messages, recordedMessage{e.Seq, data})
			}
		case KindHTTPEnd:
			if x != nil {
				x.endSeq = e.Seq
			}
		}
	}
	return exchanges, order
}

// eventData is the data of one SSE event: its data lines joined.
func eventData(event []byte) ([]byte, bool) {
	var data [][]byte
	for _, line := range bytes.Split(event, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(v, []byte(" ")))
		}
	}
	joined := bytes.Join(data, []byte("\n"))
	return joined, len(bytes.TrimSpace(joined)) > 0
}

// destination is where a recorded request is replayed: where the tap
// sent it, on the server replayed against. The tap sent a request for
// "/" to the upstream's own path (Proxy.rewrite), so that a host pointed
// at the tap's bare address reached the endpoint; the recording keeps
// the path the host asked for, and the upstream in its first event. A
// --against URL with a path of its own takes the place of the
// upstream's.
type destination struct {
	target       *url.URL // the server replayed against
	upstreamPath string   // the path of the upstream the tap relayed to
}

func (d *destination) url(recorded string) (*url.URL, error) {
	u, err := url.Parse(recorded)
	if err != nil {
		return nil, err
	}
	u.Scheme, u.Host = d.target.Scheme, d.target.Host
	root := func(p string) bool { return p == "" || p == "/" }
	if root(u.Path) && !root(d.upstreamPath) {
		u.Path, u.RawPath = d.upstreamPath, ""
	}
	if !root(d.target.Path) {
		switch {
		case !root(d.upstreamPath) && (u.Path == d.upstreamPath || strings.HasPrefix(u.Path, strings.TrimSuffix(d.upstreamPath, "/")+"/")):
			u.Path = d.target.Path + strings.TrimPrefix(u.Path, d.upstreamPath)
		case root(u.Path):
			u.Path = d.target.Path
		}
		u.RawPath = ""
	}
	return u, nil
}

// hopHeaders are not the host's to replay: the HTTP client sets them for
// its own connection.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length", "Host"}

func (x *httpExchange) replay(ctx context.Context, client *http.Client, dest *destination, sessions *sessionMap, ids *idMap, gens *genMap, token string) {
	u, err := dest.url(x.req.URL)
	if err != nil {
		x.gotError = err
		return
	}
	body := gens.rewrite(ids.rewrite(x.req.Bytes()))
	req, err := http.NewRequestWithContext(ctx, x.req.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		x.gotError = err
		return
	}
	req.Header = x.req.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	for _, h := range hopHeaders {
		req.Header.Del(h)
	}
	if strings.Contains(req.Header.Get("Authorization"), Masked) {
		req.Header.Del("Authorization")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
	}
	recordedSession := req.Header.Get("Mcp-Session-Id")
	if recordedSession != "" {
		req.Header.Set("Mcp-Session-Id", sessions.get(recordedSession))
	}
	resp, err := client.Do(req)
	if err != nil {
		x.gotError = err
		return
	}
	defer resp.Body.Close()
	x.gotCode, x.gotHead = resp.StatusCode, resp.Header
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		if recorded := x.header.Get("Mcp-Session-Id"); recorded != "" {
			sessions.set(recorded, s)
		}
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		if len(b) > 0 {
			x.gotBody = append(x.gotBody, b)
			gens.addActual(b)
		}
		return
	}
	r := bufio.NewReader(resp.Body)
	var event []byte
	for {
		line, err := r.ReadBytes('\n')
		event = append(event, line...)
		if len(bytes.TrimRight(line, "\r\n")) == 0 || err != nil {
			if data, ok := eventData(event); ok {
				x.gotBody = append(x.gotBody, data)
				gens.addActual(data)
				if id, ok := serverRequestID(data); ok {
					ids.addActual(id)
				}
			}
			event = event[:0]
		}
		if err != nil {
			return
		}
	}
}

// compare reports how the replayed exchange differs from the recorded.
// Where the server names its own address (an A2A agent card's url), it
// named the one the host reached it at: the tap's in the recording,
// actualHost in the replay; both read as placeholderAddress.
func (x *httpExchange) compare(actualHost string) []Difference {
	name := fmt.Sprintf("exchange %d (%s %s", x.req.Exchange, x.req.Method, pathOf(x.req.URL))
	if key, _ := messageKey(x.req.Bytes(), map[string]int{}); strings.HasPrefix(key, "request ") {
		name += " " + strings.TrimSuffix(strings.TrimPrefix(key, "request "), " #1")
	}
	name += "): "
	if x.gotError != nil && x.gotCode == 0 {
		return []Difference{{Event: x.req.Seq, What: name + "no answer: " + x.gotError.Error()}}
	}
	var diffs []Difference
	if x.gotCode != x.status {
		diffs = append(diffs, Difference{Event: x.req.Seq, What: name + "status differs",
			Diff: DiffLines(fmt.Sprint(x.status), fmt.Sprint(x.gotCode))})
	}
	want, _, _ := mime.ParseMediaType(x.header.Get("Content-Type"))
	got, _, _ := mime.ParseMediaType(x.gotHead.Get("Content-Type"))
	if want != got {
		diffs = append(diffs, Difference{Event: x.req.Seq, What: name + "Content-Type differs", Diff: DiffLines(want, got)})
	}
	recorded := make([]recordedMessage, len(x.messages))
	for i, m := range x.messages {
		recorded[i] = recordedMessage{m.seq, ownAddress(m.data, hostOf(x.req.URL))}
	}
	replayed := make([][]byte, len(x.gotBody))
	for i, b := range x.gotBody {
		replayed[i] = ownAddress(b, actualHost)
	}
	return append(diffs, compareMessages(recorded, replayed, nil, name)...)
}

// ownAddress replaces the server's address in a message, written as in
// a URL ("//127.0.0.1:8031/"), with placeholderAddress.
func ownAddress(data []byte, host string) []byte {
	if host == "" {
		return data
	}
	return bytes.ReplaceAll(data, []byte("//"+host), []byte("//"+placeholderAddress))
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Host
	}
	return ""
}

func pathOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.RequestURI()
	}
	return raw
}

// sessionMap maps recorded session ids to the fresh server's.
type sessionMap struct {
	mu sync.Mutex // guards m
	m  map[string]string
}

func (s *sessionMap) get(recorded string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.m[recorded]; ok {
		return v
	}
	return recorded
}

func (s *sessionMap) set(recorded, actual string) {
	s.mu.Lock()
	s.m[recorded] = actual
	s.mu.Unlock()
}
