package playground

import (
	"context"
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
// From the page:
//
//	{"op":"send","id":7,"target":"mcp-stdio","frame":"{\"jsonrpc\":\"2.0\",...}"}
//	{"op":"restart","target":"mcp-stdio"}   // a fresh child process
//
// To the page, one per piece of traffic, as it happens:
//
//	{"op":"event","id":7,"target":"mcp-stdio","dir":"out","kind":"line","at":"...","text":"...","size":83}
//	{"op":"event","target":"mcp-stdio","dir":"in","kind":"line",...}     // stdout of the child
//	{"op":"event","target":"mcp-stdio","dir":"err","kind":"stderr",...}  // stderr of the child
//	{"op":"event","id":8,"target":"http","dir":"in","kind":"http-head",...}
//	{"op":"error","id":9,"message":"..."}  // the playground refused the frame
//
// "out" is what the learner sent, "in" what came back. An event carries
// the id of the frame it answers when the playground knows it (HTTP and
// gRPC: one exchange per frame); on a stdio child, lines come as the
// server writes them, and the page matches JSON-RPC ids itself.

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
}

// hub accepts the tabs' websockets and keeps the counts that the limits
// need. Close ends every session and waits for their goroutines and
// children.
type hub struct {
	targets  Targets
	upgrader websocket.Upgrader
	ctx      context.Context // ends every session, at close
	stop     context.CancelFunc
	wg       sync.WaitGroup // counts sessions

	mu       sync.Mutex // guards sessions and children
	sessions int
	children int
}

func newHub(t Targets) *hub {
	ctx, stop := context.WithCancel(context.Background())
	return &hub{targets: t, ctx: ctx, stop: stop, upgrader: websocket.Upgrader{
		ReadBufferSize:  4096,
		WriteBufferSize: 4096,
		CheckOrigin:     sameMachineOrigin,
	}}
}

// close ends every session, stops their children, and waits.
func (h *hub) close() {
	h.stop()
	h.wg.Wait()
}

// sameMachineOrigin checks the Origin of a websocket upgrade: a page on
// another site must not open a websocket to this one and drive it
// (cross-site websocket hijacking). Browsers always send Origin on a
// websocket handshake, so one without it is refused too.
func sameMachineOrigin(r *http.Request) bool {
	return r.Header.Get("Origin") != "" && loopback.Check(r) == nil
}

// serveWS upgrades the request and serves the tab until it goes away.
func (h *hub) serveWS(w http.ResponseWriter, r *http.Request) {
	if !sameMachineOrigin(r) {
		http.Error(w, "websocket refused: the page must come from this machine (Origin was "+fmt.Sprintf("%q", r.Header.Get("Origin"))+")", http.StatusForbidden)
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
	s.run(h.ctx)
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
// such a tab may start child processes.
func isLoopbackPeer(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
