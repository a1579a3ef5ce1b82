package playground

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

// The page talks to the playground over one websocket per browser tab:
// the tab sends frames, and the playground sends back every byte that
// crossed each wire, as events. The messages are JSON objects.
//
// Right after the upgrade, the playground greets the tab with the
// session's id, which another tab can use to watch it (below), and says
// whether the tab may start processes (stdio and custom targets): only a
// tab on this machine (a loopback peer) may.
//
//	{"op":"hello","session":"9f86d081884c7d659a2feaa0c55ad015","local":true,"watching":false}
//
// From the page:
//
//	{"op":"send","id":7,"target":"mcp-stdio","frame":"{\"jsonrpc\":\"2.0\",...}"}
//	{"op":"restart","target":"mcp-stdio"}   // a fresh child process
//
// A custom target is the learner's own server, named by "to":
//
//	{"op":"send","id":8,"target":"custom-stdio","to":"python3 my_server.py --flag 'a b'","frame":"..."}
//	{"op":"restart","target":"custom-stdio","to":"python3 my_server.py --flag 'a b'"}
//	{"op":"send","id":9,"target":"custom-http","to":"http://127.0.0.1:9000","frame":"POST /x HTTP/1.1\n..."}
//	{"op":"send","id":10,"target":"custom-grpc","to":"127.0.0.1:9000","frame":"pkg.Service/Method\n{...}"}
//
// custom-stdio starts the command line as a child process, one per
// distinct command line per tab, in the playground's working directory.
// The line is split into words as a POSIX shell splits them (blanks,
// 'single quotes', "double quotes", backslash escapes), but no shell
// runs: $VAR, ~, globs, pipes and redirections reach the program as
// they are. custom-http takes an http:// base URL (not https, yet), and
// custom-grpc a host:port. Only a tab on this machine may use them.
//
// To the page, one per piece of traffic, as it happens:
//
//	{"op":"event","id":7,"target":"mcp-stdio","dir":"out","kind":"line","at":"...","text":"...","size":83}
//	{"op":"event","target":"mcp-stdio","dir":"in","kind":"line",...}     // stdout of the child
//	{"op":"event","target":"mcp-stdio","dir":"err","kind":"stderr",...}  // stderr of the child
//	{"op":"event","id":8,"target":"http","dir":"in","kind":"http-head",...}
//	{"op":"event","target":"custom-stdio","to":"python3 my_server.py --flag 'a b'","dir":"in",...}
//	{"op":"error","id":9,"message":"..."}  // the playground refused the frame
//
// "out" is what the learner sent, "in" what came back. An event carries
// the id of the frame it answers when the playground knows it (HTTP and
// gRPC: one exchange per frame); on a stdio child, lines come as the
// server writes them, and the page matches JSON-RPC ids itself. An
// event of a custom target echoes its "to", so that the page can tell
// two custom servers apart.
//
// Watching: another tab, a teacher's projector say, may follow a session
// live by opening the websocket at /ws?watch=<session id>. It is greeted
// with
//
//	{"op":"hello","session":"9f86d081884c7d659a2feaa0c55ad015","local":false,"watching":true}
//
// ("local" is false: a follower starts nothing), then the session's
// latest events again (the last replayEvents, fewer if they pass
// replayBytes), then every new event and refusal of the session as it
// happens. It may not send: each of its commands is answered with
//
//	{"op":"error","id":3,"message":"this tab is watching session 9f86...; it cannot send"}
//
// When the session ends, the follower gets one last event and is closed:
//
//	{"op":"event","dir":"note","kind":"session-end","at":"...","text":"the session you were watching ended"}
//
// An unknown session id is answered 404 and a session with maxWatchers
// followers 503, both before the upgrade.

// Limits of the hub, each with a message the learner sees when it is hit.
const (
	// maxFrame bounds one message from the page: the servers' own limit
	// for one message is 1 MiB, and a frame must fit in it.
	maxFrame = 1 << 20
	// framesPerSecond and frameBurst bound how fast one tab may send: a
	// learner clicks, a runaway script loops.
	framesPerSecond = 20
	frameBurst      = 40
	// maxSessions bounds the tabs connected at once, and maxChildren the
	// child processes they may run between them.
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
}

// hub accepts the tabs' websockets, keeps the registry of their sessions
// (so that a follower can find the session it watches) and the counts
// that the limits need. Close ends every session and follower and waits
// for their goroutines and children.
type hub struct {
	targets  Targets
	site     *loopback.Site // the playground's own hosts and origin; set before serving
	upgrader websocket.Upgrader
	ctx      context.Context // ends every session and follower, at close
	stop     context.CancelFunc
	wg       sync.WaitGroup // counts sessions, followers and grades (hold)

	// frameRate and frameBurst are the token bucket of every tab: the
	// constants framesPerSecond and frameBurst, raised only by benchmarks,
	// which send as fast as the answers come. Set before serving.
	frameRate, frameBurst float64

	// mu guards sessions, children and registry. When a follower attaches,
	// it is held around the session's feed lock (the order is always hub,
	// then feed), so that a session cannot end between being found and
	// being followed.
	mu       sync.Mutex
	sessions int
	children int
	registry map[string]*session // the sessions being served, by id
}

func newHub(t Targets) *hub {
	ctx, stop := context.WithCancel(context.Background())
	h := &hub{targets: t, ctx: ctx, stop: stop, site: &loopback.Site{},
		frameRate: framesPerSecond, frameBurst: frameBurst,
		registry: make(map[string]*session)}
	h.upgrader = websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 4096, CheckOrigin: h.ownOrigin}
	return h
}

// close ends every session and follower, stops the children, and waits.
// Sessions and followers are counted under mu after checking ctx, so
// cancelling under mu means none is counted once Wait may have begun.
func (h *hub) close() {
	h.mu.Lock()
	h.stop()
	h.mu.Unlock()
	h.wg.Wait()
}

// ownOrigin checks the Origin of a websocket upgrade: only the
// playground's own pages may open a websocket and drive it; a page of
// any other site, another port of this machine included, must not
// (cross-site websocket hijacking). Browsers always send Origin on a
// websocket handshake, so one without it is refused too.
func (h *hub) ownOrigin(r *http.Request) bool {
	return r.Header.Get("Origin") != "" && h.site.Check(r) == nil
}

// serveWS upgrades the request and serves the tab until it goes away;
// with ?watch=<session id>, the tab follows that session instead.
func (h *hub) serveWS(w http.ResponseWriter, r *http.Request) {
	if !h.ownOrigin(r) {
		http.Error(w, "websocket refused: the page must come from this machine (Origin was "+fmt.Sprintf("%q", r.Header.Get("Origin"))+")", http.StatusForbidden)
		return
	}
	if q := r.URL.Query(); q.Has("watch") {
		h.serveWatch(w, r, q.Get("watch"))
		return
	}
	h.mu.Lock()
	if h.ctx.Err() != nil || h.sessions >= maxSessions {
		h.mu.Unlock()
		http.Error(w, fmt.Sprintf("too many playground tabs are open (at most %d); close one and reload", maxSessions), http.StatusServiceUnavailable)
		return
	}
	h.sessions++
	h.wg.Add(1)
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.sessions--
		h.mu.Unlock()
		h.wg.Done()
	}()
	conn, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the request
	}
	s := newSession(h, conn, isLoopbackPeer(r))
	h.mu.Lock()
	h.registry[s.id] = s
	h.mu.Unlock()
	s.run()
}

// unregister takes an ending session out of the registry: no follower
// can attach to it after this.
func (h *hub) unregister(s *session) {
	h.mu.Lock()
	delete(h.registry, s.id)
	h.mu.Unlock()
}

// hold counts a piece of work, such as a grade, among those close waits
// for, and returns the context it runs in: parent's, ended as well when
// the hub closes. release ends the context and the count. A hub that is
// closing holds nothing new (ok is false). The count is taken under mu
// after checking ctx, as close requires.
func (h *hub) hold(parent context.Context) (ctx context.Context, release func(), ok bool) {
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

// takeChild counts a child process against maxChildren.
func (h *hub) takeChild() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.children >= maxChildren {
		return false
	}
	h.children++
	return true
}

func (h *hub) releaseChild() {
	h.mu.Lock()
	h.children--
	h.mu.Unlock()
}

// sessionCount and childCount say how many tabs and children there are.
func (h *hub) sessionCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions
}

func (h *hub) childCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.children
}

// isLoopbackPeer reports whether the request came from this machine. Only
// such a tab may start child processes and reach custom targets.
func isLoopbackPeer(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// newSessionID returns sessionIDBytes from crypto/rand, in hex.
func newSessionID() string {
	b := make([]byte, sessionIDBytes)
	rand.Read(b) // crypto/rand.Read never fails: it crashes the program instead
	return hex.EncodeToString(b)
}
