package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/internal/tap"
)

// A running `wirelab tap` may publish what it records to a playground on
// the same machine, whose tabs then watch it as they watch another tab:
// the tap opens the websocket /ws/tap?name=NAME and sends each recorded
// event as one message, a tap.Event as JSON, in the order of its seq. The
// hub makes each such connection a session with the id "tap-1", "tap-2",
// ... (counting up for as long as the playground runs), and translates
// the tap's events into the events a console already shows: a stdio tap
// is a custom-stdio target whose "to" is the tapped command line, an
// HTTP tap a custom-http one whose "to" is the upstream. A tab follows it
// at /ws?watch=tap-1, greeted, replayed to and ended as a watcher of any
// session is; the session ends when the tap's connection closes.
//
// Nothing is sent back to the tap but the websocket's own control
// frames: the tap only publishes.
//
// Each event a console gets from a tap carries "seq", the number of the
// tap's event it comes from, and the tap's events are checked as they
// come, by the rules of wirelab tap check (package tapcheck): each
// finding follows the event it is about as an event of its own, kind
// "finding", whose "seq" names the event and whose "finding" is the
// finding with its "index" in the check's report. A finding that a later
// event changes comes again with the same index:
//
//	{"op":"event","target":"custom-stdio","to":"node server.js","dir":"in","kind":"line","text":"starting up","seq":3,...}
//	{"op":"event","dir":"note","kind":"finding","seq":3,"finding":{"index":0,"code":"stdout-noise","severity":"error","event":3,"detail":"...","en":"...","ru":"..."}}
//
// A recording (the file a tap writes) opens as a tap too (OpenRecording):
// its events are published at once, checked the same way, and its
// session stays, read only, until maxRecordings newer ones push it out.

// Limits of the taps' side of the hub.
const (
	// maxTapMessage bounds one message from a tap: an event holds at
	// most tap.DefaultMaxData bytes of data, which base64 makes 4/3 as
	// long, plus its JSON envelope and headers.
	maxTapMessage = tap.DefaultMaxData*4/3 + 64<<10
	// maxEndedTaps is how many ended taps the list keeps, newest first,
	// so that a tap that has just stopped can still be found.
	maxEndedTaps = 16
	// maxLiveTaps bounds the taps publishing at once: each keeps a
	// session's replay (replayBytes) in memory.
	maxLiveTaps = 16
	// maxRecordings bounds the recordings open at once, for the same
	// reason; opening one more closes the oldest.
	maxRecordings = 8
)

// TapInfo describes one tap, live or ended, for the list of taps.
type TapInfo struct {
	ID       string    // the session's id: "tap-1"
	Name     string    // as the tap named itself (?name=)
	Protocol string    // "stdio", "http" or "grpc": what the tap relays
	Command  string    // a stdio tap's server command line
	Upstream string    // an HTTP or gRPC tap's upstream
	Started  time.Time // when the tap connected
	Events   int       // how many events it has published
	Ended    time.Time // zero while the tap is connected
	// Recorded marks a recording opened from its file: its session stays
	// open, read only, after its last event.
	Recorded bool
	// Errors and Warnings count the findings of the check so far.
	Errors, Warnings int
	// Speaks is what the check found the messages to be: "mcp", "a2a",
	// or "" (none yet, or neither).
	Speaks string
}

// taps is the hub's registry of taps. Its zero value is ready.
type taps struct {
	mu       sync.Mutex // guards everything below
	next     int        // the number of the last tap
	live     map[string]*TapInfo
	recorded []*recording // newest last, at most maxRecordings
	ended    []TapInfo    // newest last, at most maxEndedTaps
}

// recording is an opened recording and the session that shows it.
type recording struct {
	info *TapInfo
	s    *session
}

// Taps lists the taps publishing to this hub now, then the recordings
// open here, then the taps that have ended recently, each list newest
// first.
func (h *Hub) Taps() []TapInfo {
	t := &h.taps
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []TapInfo
	for _, i := range t.live {
		out = append(out, *i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Started.After(out[b].Started) })
	for i := len(t.recorded) - 1; i >= 0; i-- {
		out = append(out, *t.recorded[i].info)
	}
	for i := len(t.ended) - 1; i >= 0; i-- {
		out = append(out, t.ended[i])
	}
	return out
}

// ServeTap accepts the websocket of a tap on this machine and republishes
// its events as the session "tap-N" until the tap disconnects or the hub
// closes. A tap is a program, not a page, but the websocket rules are
// those of /ws, so that no page of another site can pose as one: the
// peer must be on this machine, and Host and Origin must be the
// playground's own (the tap sends the playground's origin).
func (h *Hub) ServeTap(w http.ResponseWriter, r *http.Request) {
	if !IsLocalPeer(r) {
		http.Error(w, "a tap publishes from this machine only", http.StatusForbidden)
		return
	}
	if !h.ownOrigin(r) {
		http.Error(w, "tap refused: Host and Origin must be the playground's own (Origin was "+fmt.Sprintf("%q", r.Header.Get("Origin"))+")", http.StatusForbidden)
		return
	}
	ctx, release, ok := h.Hold(r.Context())
	if !ok {
		http.Error(w, ErrClosed.Error(), http.StatusServiceUnavailable)
		return
	}
	defer release()
	info, err := h.taps.begin(r.URL.Query().Get("name"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	conn, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		h.taps.end(info.ID)
		return // Upgrade has answered the request
	}
	defer conn.Close()
	// The read below blocks until the tap sends or goes; closing the
	// connection when the hub closes unblocks it.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	conn.SetReadLimit(maxTapMessage)

	// A tap's session has no tab of its own: its feed's only readers
	// are its followers. A send to the nil channel never proceeds, so
	// the feed's "tab" is passed over, and dropping it does nothing.
	s := &session{hub: h, id: info.ID, feed: newFeed(nil, func() {})}
	h.mu.Lock()
	h.registry[s.id] = s
	h.mu.Unlock()
	defer func() {
		h.unregister(s)
		s.feed.end()
		h.taps.end(info.ID)
	}()

	p := newTapPublisher(s, info, false)
	defer p.end() // the findings only the end can tell, before the session ends
	for {
		_, b, err := conn.ReadMessage()
		if err != nil {
			return
		}
		var e tap.Event
		if json.Unmarshal(b, &e) != nil {
			s.emit(Event{Dir: "note", Kind: "note", Text: "the tap sent a message that is not an event; it is left out"})
			continue
		}
		p.add(e)
	}
}

// begin registers a new tap and numbers it.
func (t *taps) begin(name string) (TapInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.live) >= maxLiveTaps {
		return TapInfo{}, fmt.Errorf("%d taps already publish here, the most a playground takes", maxLiveTaps)
	}
	if t.live == nil {
		t.live = make(map[string]*TapInfo)
	}
	t.next++
	i := &TapInfo{ID: fmt.Sprintf("tap-%d", t.next), Name: name, Protocol: "stdio", Started: time.Now()}
	t.live[i.ID] = i
	return *i, nil
}

// info returns the live tap or open recording id, or nil. The caller
// holds t.mu.
func (t *taps) info(id string) *TapInfo {
	if i := t.live[id]; i != nil {
		return i
	}
	for _, r := range t.recorded {
		if r.info.ID == id {
			return r.info
		}
	}
	return nil
}

// started records what a tap relays, from its start event.
func (t *taps) started(id string, e tap.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i := t.info(id); i != nil {
		i.Protocol, i.Command, i.Upstream = tapProtocol(e), commandLine(e.Command), e.Upstream
	}
}

// count adds n events of the tap to its count, and sets what the check
// has found so far.
func (t *taps) count(id string, n, errors, warnings int, speaks string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i := t.info(id); i != nil {
		i.Events += n
		i.Errors, i.Warnings = errors, warnings
		if i.Speaks == "" {
			i.Speaks = speaks
		}
	}
}

// end moves a tap to the ended list, forgetting the oldest past
// maxEndedTaps.
func (t *taps) end(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := t.live[id]
	if i == nil {
		return
	}
	delete(t.live, id)
	i.Ended = time.Now()
	t.ended = append(t.ended, *i)
	if len(t.ended) > maxEndedTaps {
		t.ended = t.ended[len(t.ended)-maxEndedTaps:]
	}
}

// tapProtocol says what a tap relays, from its start event: a command
// is stdio; a grpc:// or grpcs:// upstream gRPC; any other upstream HTTP.
func tapProtocol(e tap.Event) string {
	switch {
	case len(e.Command) > 0:
		return "stdio"
	case strings.HasPrefix(e.Upstream, "grpc"):
		return "grpc"
	case e.Upstream != "":
		return "http"
	}
	return "stdio"
}

// commandLine writes argv as a POSIX shell would read it back, the way
// a custom-stdio target's "to" is written: a word with blanks or quotes
// goes in single quotes.
func commandLine(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`*?[]#~;&|<>(){}") {
			words[i] = a
			continue
		}
		words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(words, " ")
}

// translator turns a tap's events into a console's. It is used by one
// tap's reader alone. target and to are the custom target the tapped
// server appears as, known from the start event. A gRPC tap's frames
// become the console's gRPC calls (tapgrpc.go).
type translator struct {
	target, to string
	grpc       grpcView // a gRPC tap's connections and calls (tapgrpc.go)
	// recorded: the events come from a recording's file, all at once,
	// not from a tap as they happen.
	recorded bool
}

// events translates one event of the tap into the events a console
// reads for the same traffic (the page's half of the engine's messages,
// see the package comment): stdio lines as "line", stderr as "stderr",
// an HTTP exchange as "http-request", then "raw" and "http-head" for the
// answer's head and "http-body" for its body or each of its SSE events,
// and the tap's notes and the server's exit as notes.
func (tr *translator) events(e tap.Event) []Event {
	ev := Event{Op: "event", Target: tr.target, To: tr.to, At: e.T.UTC().Format(time.RFC3339Nano), ID: int64(e.Exchange)}
	text := string(e.Bytes())
	switch e.Kind {
	case tap.KindStart:
		switch tapProtocol(e) {
		case "stdio":
			tr.target, tr.to = "custom-stdio", commandLine(e.Command)
		case "http":
			tr.target, tr.to = "custom-http", e.Upstream
		case "grpc":
			tr.target, tr.to = "custom-grpc", strings.TrimPrefix(strings.TrimPrefix(e.Upstream, "grpcs://"), "grpc://")
		}
		ev.Target, ev.To, ev.Dir, ev.Kind = tr.target, tr.to, "note", "tap"
		ev.Text = "the tap relays " + tr.to + "; what it sees comes here as it happens"
		if tr.recorded {
			ev.Text = "a recording of " + tr.to + ", opened read only: what the tap saw, from its file"
		}
	case tap.KindLine:
		ev.Dir, ev.Kind, ev.Text, ev.Size = e.Dir, "line", text, e.Size+1 // the newline crossed too
		if e.NoEOL {
			ev.Size = e.Size
		}
		if e.Dir == tap.Err {
			ev.Kind = "stderr"
		}
	case tap.KindHTTPRequest:
		ev.Dir, ev.Kind, ev.Text = "out", "http-request", requestText(e)
		ev.Size = len(ev.Text)
	case tap.KindHTTPResponse:
		head := responseHead(e)
		raw := ev
		raw.Dir, raw.Kind, raw.Text, raw.Size = "in", "raw", strings.ReplaceAll(head, "\n", "\r\n")+"\r\n\r\n", 0
		ev.Dir, ev.Kind, ev.Text = "in", "http-head", head
		if e.Data == "" && e.Base64 == "" {
			return []Event{raw, ev}
		}
		// An answer the tap made itself (502, the upstream down) carries
		// its body in the same event.
		body := ev
		body.Kind, body.Text, body.Size = "http-body", text, len(text)
		return []Event{raw, ev, body}
	case tap.KindHTTPBody:
		ev.Dir, ev.Kind, ev.Text, ev.Size = "in", "http-body", text, e.Size
	case tap.KindSSEEvent:
		// An event as it passed, without the blank line that ended it.
		ev.Dir, ev.Kind, ev.Text, ev.Size = "in", "http-body", text+"\n\n", e.Size+2
	case tap.KindHTTPEnd:
		ev.Dir, ev.Kind, ev.Text = "note", "end", "the answer is complete"
		if text != "" {
			ev.Text = text
		}
	case tap.KindExit:
		ev.Dir, ev.Kind, ev.Text = "note", "exit", "the server exited: "+text
	case tap.KindFrame, tap.KindDescriptors:
		return tr.grpcEvents(e, ev)
	default: // KindNote, and kinds a newer tap may add
		ev.Dir, ev.Kind, ev.Text = "note", "note", text
		if e.Kind != tap.KindNote {
			ev.Text = e.Kind + ": " + text
		}
	}
	return []Event{ev}
}

// requestText writes a recorded request as it crossed: request line,
// Host, the other headers in sorted order (the recording does not keep
// their order), a blank line and the body.
func requestText(e tap.Event) string {
	target, host := e.URL, ""
	if u, err := url.Parse(e.URL); err == nil && u.Host != "" {
		target, host = u.RequestURI(), u.Host
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", e.Method, target)
	if host != "" {
		fmt.Fprintf(&b, "Host: %s\r\n", host)
	}
	writeHeader(&b, e.Header, "\r\n")
	b.WriteString("\r\n")
	b.Write(e.Bytes())
	return b.String()
}

// responseHead writes a recorded response's head as an "http-head"
// carries it: the status line and the header lines, joined by "\n".
func responseHead(e tap.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s", e.Status, http.StatusText(e.Status))
	if len(e.Header) > 0 {
		b.WriteString("\n")
	}
	writeHeader(&b, e.Header, "\n")
	return strings.TrimSuffix(b.String(), "\n")
}

func writeHeader(b *strings.Builder, h http.Header, eol string) {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range h[name] {
			b.WriteString(name + ": " + v + eol)
		}
	}
}

// The tap's side: publishing a recorder to a playground.

// Waits of a publishing tap: between tries to reach the playground, the
// first short, doubling up to relayMaxWait; and how long Close spends
// sending the last events before it gives up on a slow playground.
const (
	publishFirstWait = relayFirstWait
	publishFlushWait = 2 * time.Second
)

// Publisher sends a tap's events to a playground's /ws/tap as they are
// recorded, reconnecting when the playground goes away. It never holds
// up the relay: it reads the recorder's live feed, which drops a reader
// that falls behind, and catches up from the events the recorder keeps.
type Publisher struct {
	stop chan struct{} // closed by Close
	done chan struct{} // closed when run returns
	once sync.Once
}

// PublishOptions configure Publish. Nil means defaults.
type PublishOptions struct {
	// Report, if set, hears each change of the connection: nil when the
	// playground is reached, the reason when it is lost or skipped.
	Report func(error)
}

// Publish starts publishing rec's events, those it keeps so far and
// every later one, to the playground at base (http://127.0.0.1:8018),
// naming the tap name. It returns an error only for a base that is not
// an http:// URL; a playground that is not there is tried again
// meanwhile. Close stops it.
func Publish(base, name string, rec *tap.Recorder, opts *PublishOptions) (*Publisher, error) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("the playground's URL must be http://HOST:PORT, not %q", base)
	}
	if opts == nil {
		opts = &PublishOptions{}
	}
	report := opts.Report
	if report == nil {
		report = func(error) {}
	}
	origin := "http://" + u.Host
	wsURL := "ws://" + u.Host + "/ws/tap?name=" + url.QueryEscape(name)
	p := &Publisher{stop: make(chan struct{}), done: make(chan struct{})}
	// Ends when Close closes stop.
	go func() {
		defer close(p.done)
		p.run(wsURL, origin, rec, report)
	}()
	return p, nil
}

// Close sends what the recorder holds that was not sent yet, waiting at
// most publishFlushWait, closes the connection and returns. It is
// idempotent.
func (p *Publisher) Close() {
	p.once.Do(func() { close(p.stop) })
	<-p.done
}

// run connects, publishes until the connection breaks, and tries again
// after a growing wait, until stop closes.
func (p *Publisher) run(wsURL, origin string, rec *tap.Recorder, report func(error)) {
	wait := publishFirstWait
	for {
		err := p.publishOnce(wsURL, origin, rec, func() { wait = publishFirstWait; report(nil) })
		select {
		case <-p.stop:
			return // stopped, with the last events sent if it could
		default:
		}
		report(err)
		select {
		case <-time.After(wait):
		case <-p.stop:
			return
		}
		wait = min(2*wait, relayMaxWait)
	}
}

// publishOnce opens one connection and sends: first the start event and
// the latest replayEvents the recorder keeps (a new connection is a new
// session, whose watchers need the beginning), then each event as it is
// recorded. It returns nil when stop closes and the last events are
// sent, or why the connection failed.
func (p *Publisher) publishOnce(wsURL, origin string, rec *tap.Recorder, connected func()) error {
	ctx, cancel := context.WithTimeout(context.Background(), relayDialTimeout)
	// A tap that stops while this dial is under way still gets its
	// events out, if the playground answers within publishFlushWait.
	go func() { // ends with the dial: when cancel runs below, or it times out
		select {
		case <-p.stop:
			select {
			case <-time.After(publishFlushWait):
				cancel()
			case <-ctx.Done():
			}
		case <-ctx.Done():
		}
	}()
	dialer := websocket.Dialer{HandshakeTimeout: relayDialTimeout}
	conn, resp, err := dialer.DialContext(ctx, wsURL, http.Header{"Origin": {origin}})
	cancel()
	if err != nil {
		if resp != nil {
			return fmt.Errorf("reaching the playground: %w (%s)", err, resp.Status)
		}
		return fmt.Errorf("reaching the playground: %w", err)
	}
	defer conn.Close()
	connected()

	// The playground sends nothing but control frames; reading them
	// answers its pings, and a read error says the connection is gone.
	gone := make(chan error, 1)
	go func() { // ends when the connection closes (the defer above)
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				gone <- err
				return
			}
		}
	}()
	sent := 0 // the seq of the last event this connection has sent
	send := func(e tap.Event, deadline time.Time) error {
		conn.SetWriteDeadline(deadline)
		if err := conn.WriteJSON(e); err != nil {
			return fmt.Errorf("publishing to the playground: %w", err)
		}
		sent = e.Seq
		return nil
	}
	// catchUp sends the kept events past sent; when the recorder no
	// longer keeps some of them, a note says how many are missing.
	catchUp := func(deadline time.Time) error {
		for _, e := range rec.Events() {
			if e.Seq <= sent {
				continue
			}
			if e.Seq > sent+1 && sent > 0 {
				gap := tap.Event{Seq: sent, T: e.T, Kind: tap.KindNote,
					Data: fmt.Sprintf("%d events are not shown: the playground fell behind, and the tap no longer keeps them", e.Seq-sent-1)}
				if err := send(gap, deadline); err != nil {
					return err
				}
			}
			if err := send(e, deadline); err != nil {
				return err
			}
		}
		return nil
	}

	sub := rec.Subscribe()
	defer func() { sub.Close() }()
	// A new session: its start event, then the latest events kept.
	kept := rec.Events()
	if len(kept) > 0 && kept[0].Kind == tap.KindStart {
		if err := send(kept[0], time.Now().Add(writeWait)); err != nil {
			return err
		}
	}
	if n := len(kept) - replayEvents; n > 0 && kept[n].Seq > sent {
		sent = kept[n].Seq - 1
	}
	if err := catchUp(time.Now().Add(writeWait)); err != nil {
		return err
	}
	for {
		select {
		case e, ok := <-sub.C():
			if !ok {
				// Dropped for falling behind: catch up from what the
				// recorder keeps, and follow again.
				sub = rec.Subscribe()
				if err := catchUp(time.Now().Add(writeWait)); err != nil {
					return err
				}
				continue
			}
			if e.Seq <= sent {
				continue
			}
			if err := send(e, time.Now().Add(writeWait)); err != nil {
				return err
			}
		case err := <-gone:
			return fmt.Errorf("the playground closed the connection: %w", err)
		case <-p.stop:
			deadline := time.Now().Add(publishFlushWait)
			if err := catchUp(deadline); err != nil {
				return nil // stopping anyway: a slow playground misses the end
			}
			conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), deadline)
			return nil
		}
	}
}
