package wire

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/internal/loopback"
)

// Limits of the hub, each with a message the learner sees when it is hit.
const (
	// maxFrame bounds one message from the page: the servers' own limit
	// for one message is 1 MiB, and a frame must fit in it.
	maxFrame = 1 << 20
	// FramesPerSecond and frameBurst bound how fast one tab may send: a
	// learner clicks, a runaway script loops.
	FramesPerSecond = 20
	frameBurst      = 40
	// maxSessions bounds the tabs connected at once: this machine's, and
	// other machines' apart (a classroom's students cannot crowd out the
	// instructor). maxChildren bounds the child processes they may run
	// between them (only this machine's tabs start any).
	maxSessions = 16
	maxChildren = 32
	// maxInFlight bounds the exchanges one tab waits on at once (an SSE
	// stream may stay open for exchangeTimeout).
	maxInFlight = 4
	// exchangeTimeout is how long one HTTP or gRPC exchange may last: long
	// enough to watch a stream, short enough that a forgotten one ends.
	exchangeTimeout = time.Minute
	// sendBuffer is how many events may wait for a slow tab before it is
	// dropped: the hub never waits on a reader.
	sendBuffer = 256
	// roomPoll is how often a reader held back by a full queue looks
	// again (awaitRoom): a page takes an event in well under that.
	roomPoll = 5 * time.Millisecond
	// followerMaxMessage bounds a follower's message, which is only ever
	// refused: a command without a frame is far smaller.
	followerMaxMessage = 64 << 10
	// writeWait bounds one websocket write; pongWait is how long a tab may
	// stay silent, and pingPeriod, shorter, how often it is asked.
	writeWait  = 10 * time.Second
	pongWait   = 60 * time.Second
	pingPeriod = pongWait * 9 / 10
	// replayEvents is how many of a session's latest events a new follower
	// gets first: enough to catch a late-comer up on a lesson's worth of
	// exchanges (a handshake and a few calls are some dozens of events),
	// few enough that every session can afford to keep them.
	replayEvents = 500
	// replayBytes bounds the same replay by size: an event may carry a
	// whole frame (maxFrame), and 500 of those would be half a gigabyte
	// kept per tab.
	replayBytes = 16 << 20
	// maxWatchers bounds the followers of one session: a classroom
	// watching its teacher's tab, with room to spare.
	maxWatchers = 64
	// sessionIDBytes is the length of a session id before hex encoding:
	// 128 random bits cannot be guessed, so only whoever was shown an id
	// can watch that session.
	sessionIDBytes = 16
)

// Targets says where the live servers are. Empty fields are targets the
// page cannot reach.
type Targets struct {
	// Executable is the wirelab binary, started as "wirelab server stdio"
	// and "wirelab server mcp" for the stdio targets, one child per tab.
	Executable string
	HTTPURL    string // the HTTP tool server
	GRPCAddr   string // the gRPC tool server, host:port
	MCPURL     string // the MCP Streamable HTTP endpoint
	A2AURL     string // the A2A agent's base URL

	// HTTPAuthURL is the HTTP tool server that wants bearer tokens, those
	// of AuthTokens: the "http-auth" target, where 401 and 403 can be seen.
	HTTPAuthURL string

	// OAuthURL is the authorization server (its issuer, http://HOST:PORT)
	// and MCPAuthURL the MCP endpoint that wants its tokens: the "oauth"
	// and "mcp-auth" targets, where the OAuth flow is typed frame by
	// frame.
	OAuthURL   string
	MCPAuthURL string
}

// Hub accepts the tabs' websockets, keeps the registry of their sessions
// (so that a follower can find the session it watches) and the counts
// that the limits need. Close ends every session and follower and waits
// for their goroutines and children.
type Hub struct {
	targets  Targets
	site     *loopback.Site // the playground's own hosts and origin
	upgrader websocket.Upgrader
	ctx      context.Context // ends every session and follower, at close
	stop     context.CancelFunc
	wg       sync.WaitGroup // counts sessions, followers and grades (hold)

	// frameRate and frameBurst are the token bucket of every tab: the
	// constants FramesPerSecond and frameBurst, raised only by benchmarks,
	// which send as fast as the answers come. Set before serving.
	frameRate, frameBurst float64

	// The room: the bus its hubs share, this hub's id on it, who of this
	// hub's tabs presents, and this hub's followers of the presenter,
	// fed by the receiver.
	bus         Bus
	room        string
	id          string
	stage       stage
	audience    *audience
	receiver    receiver
	askc        chan struct{} // to the asker: ask the room for the history
	unsubscribe []func()

	// mu guards sessions, children, registry and relay. When a follower
	// attaches, it is held around the session's feed lock or the
	// audience's (the order is always hub, then feed or audience), so
	// that a session cannot end between being found and being followed.
	mu       sync.Mutex
	sessions int // tabs connected, of every machine
	// remoteSessions are the tabs of other machines (a classroom's
	// students) among sessions: they have maxSessions of their own, so
	// that they never keep this machine's tabs, the instructor's, out.
	remoteSessions int
	children       int
	registry       map[string]*session // the sessions being served, by id
	relay          *audience           // the remote instructor, while FollowRemote runs

	taps taps // the taps publishing here (tap.go), under its own lock
	// grpcUploads are the .proto files, protosets and CAs uploaded for
	// custom-grpc targets (custom_grpc.go), under their own lock.
	grpcUploads grpcUploads
}

// HubOptions configures a hub. A nil *HubOptions means defaults.
type HubOptions struct {
	// Bus carries the presenter's events to the followers of every hub
	// in the room. Nil means this process alone (NewLocalBus).
	Bus Bus
	// Room names the room on the bus: hubs of one room share its
	// presenter. Empty means "classroom".
	Room string
}

// NewHub returns a hub whose tabs reach the servers of t. site says which
// pages may open a websocket: only the site's own (loopback.Site); nil
// means a site on loopback alone. It panics if opts name a room that
// cannot be a subject, or a bus that refuses to subscribe (a closed
// connection): both are the caller's to check first.
func NewHub(t Targets, site *loopback.Site, opts *HubOptions) *Hub {
	if site == nil {
		site = &loopback.Site{}
	}
	if opts == nil {
		opts = &HubOptions{}
	}
	ctx, stop := context.WithCancel(context.Background())
	h := &Hub{targets: t, ctx: ctx, stop: stop, site: site,
		frameRate: FramesPerSecond, frameBurst: frameBurst,
		registry: make(map[string]*session),
		bus:      opts.Bus, room: opts.Room, id: newSessionID(), audience: newAudience()}
	if h.bus == nil {
		h.bus = NewLocalBus()
	}
	if h.room == "" {
		h.room = "classroom"
	}
	if err := checkRoom(h.room); err != nil {
		panic("playground: " + err.Error())
	}
	h.receiver.hub = h
	h.upgrader = websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 4096, CheckOrigin: h.ownOrigin}
	for subject, handle := range map[string]func([]byte){
		h.subject(subjectPresenter):          h.receiver.onPresenter,
		h.subject(subjectInbox) + "." + h.id: h.receiver.onHistory,
		h.subject(subjectHistory):            h.answerHistory,
	} {
		unsubscribe, err := h.bus.Subscribe(subject, handle)
		if err != nil {
			panic(fmt.Sprintf("playground: subscribing to %s: %v", subject, err))
		}
		h.unsubscribe = append(h.unsubscribe, unsubscribe)
	}
	// A hub that starts while someone in the room presents catches up.
	h.askc = make(chan struct{}, 1)
	h.wg.Add(1)
	go h.ask() // ends when the hub closes
	h.wantHistory()
	return h
}

// Close ends every session and follower, stops the children, waits, and
// leaves the room's bus (which it does not close: the caller made it).
// It is idempotent.
// Sessions and followers are counted under mu after checking ctx, so
// cancelling under mu means none is counted once Wait may have begun.
func (h *Hub) Close() {
	h.mu.Lock()
	h.stop()
	unsubscribe := h.unsubscribe
	h.unsubscribe = nil
	h.mu.Unlock()
	h.wg.Wait()
	for _, u := range unsubscribe {
		u()
	}
}

// audienceOf returns the audience a tab watching id follows, if id is
// "presenter" or, while FollowRemote runs, "instructor".
func (h *Hub) audienceOf(id string) *audience {
	switch id {
	case watchPresenter:
		return h.audience
	case watchInstructor:
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.relay
	}
	return nil
}

// ownOrigin checks the Origin of a websocket upgrade: only the
// playground's own pages may open a websocket and drive it; a page of
// any other site, another port of this machine included, must not
// (cross-site websocket hijacking). Browsers always send Origin on a
// websocket handshake, so one without it is refused too.
func (h *Hub) ownOrigin(r *http.Request) bool {
	return r.Header.Get("Origin") != "" && h.site.Check(r) == nil
}

// ServeWS upgrades the request and serves the tab until it goes away;
// with ?watch=<session id>, the tab follows that session instead. The
// tab's notes and refusals are in its page's language: ?lang=en|ru, else
// the pages' "lang" cookie, else English (langOf).
func (h *Hub) ServeWS(w http.ResponseWriter, r *http.Request) {
	if !h.ownOrigin(r) {
		http.Error(w, say(noteForeignOrigin, r.Header.Get("Origin")).in(langOf(r)), http.StatusForbidden)
		return
	}
	if q := r.URL.Query(); q.Has("watch") {
		h.serveWatch(w, r, q.Get("watch"))
		return
	}
	local := IsLocalPeer(r)
	remote := 0 // added to remoteSessions
	if !local {
		remote = 1
	}
	h.mu.Lock()
	full := h.remoteSessions >= maxSessions
	if local {
		full = h.sessions-h.remoteSessions >= maxSessions
	}
	if h.ctx.Err() != nil || full {
		h.mu.Unlock()
		http.Error(w, say(noteTooManyTabs, maxSessions).in(langOf(r)), http.StatusServiceUnavailable)
		return
	}
	h.sessions++
	h.remoteSessions += remote
	h.wg.Add(1)
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.sessions--
		h.remoteSessions -= remote
		h.mu.Unlock()
		h.wg.Done()
	}()
	conn, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the request
	}
	s := newSession(h, conn, local, langOf(r))
	h.mu.Lock()
	h.registry[s.id] = s
	h.mu.Unlock()
	s.run()
}

// unregister takes an ending session out of the registry: no follower
// can attach to it after this.
func (h *Hub) unregister(s *session) {
	h.mu.Lock()
	delete(h.registry, s.id)
	h.mu.Unlock()
}

// Hold counts a piece of work, such as a grade, among those Close waits
// for, and returns the context it runs in: parent's, ended as well when
// the hub closes. release ends the context and the count. A hub that is
// closing holds nothing new (ok is false). The count is taken under mu
// after checking ctx, as close requires.
func (h *Hub) Hold(parent context.Context) (ctx context.Context, release func(), ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ctx.Err() != nil {
		return nil, nil, false
	}
	h.wg.Add(1)
	ctx, cancel := context.WithCancel(parent)
	stop := context.AfterFunc(h.ctx, cancel)
	return ctx, func() {
		stop()
		cancel()
		h.wg.Done()
	}, true
}

// Transcript returns the events the session id has kept (its latest,
// as a new follower gets them), if it is being served.
func (h *Hub) Transcript(id string) ([][]byte, bool) {
	h.mu.Lock()
	s, ok := h.registry[id]
	h.mu.Unlock()
	if !ok || id == "" {
		return nil, false
	}
	return s.feed.events(), true
}

// Targets says where the hub's tabs send their frames.
func (h *Hub) Targets() Targets { return h.targets }

// takeChild counts a child process against maxChildren.
func (h *Hub) takeChild() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.children >= maxChildren {
		return false
	}
	h.children++
	return true
}

func (h *Hub) releaseChild() {
	h.mu.Lock()
	h.children--
	h.mu.Unlock()
}

// sessionCount and childCount say how many tabs and children there are.
func (h *Hub) sessionCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions
}

func (h *Hub) childCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.children
}

// IsLocalPeer reports whether the request came from this machine. Only
// such a tab may start child processes and reach custom targets.
//
// A loopback peer that says it forwards a request (Forwarded,
// X-Forwarded-For, X-Real-Ip) is a proxy on this machine relaying
// someone else's: a load balancer or TLS terminator in front of a
// classroom. That request is not this machine's, whoever it came from;
// a browser never sends these headers on its own.
func IsLocalPeer(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return false
	}
	for _, h := range forwardingHeaders {
		if _, ok := r.Header[h]; ok {
			return false
		}
	}
	return true
}

// forwardingHeaders are the headers a proxy adds to say whom it forwards
// for (RFC 7239's Forwarded, and the older de facto ones), in canonical
// form.
var forwardingHeaders = []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Real-Ip"}

// newSessionID returns sessionIDBytes from crypto/rand, in hex.
func newSessionID() string {
	b := make([]byte, sessionIDBytes)
	rand.Read(b) // crypto/rand.Read never fails: it crashes the program instead
	return hex.EncodeToString(b)
}
