package playground

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/wirelab/wirelab/chapters"
	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/internal/loopback"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/tools"
)

// Options configures the playground. A nil *Options means defaults.
type Options struct {
	// HTTPURL is the base URL of a running HTTP tool server to point
	// learners at, if there is one.
	HTTPURL string

	// HTTPAuthURL is the base URL of a running HTTP tool server that
	// accepts the bearer tokens of AuthTokens, if there is one: the
	// "http-auth" target of the HTTP console.
	HTTPAuthURL string

	// GRPCAddr is the host:port of a running gRPC tool server, if there
	// is one.
	GRPCAddr string

	// MCPURL is the Streamable HTTP endpoint of a running MCP server, and
	// A2AURL the base URL of a running A2A agent, if there are.
	MCPURL string
	A2AURL string

	// OAuthURL is the issuer of a running authorization server, and
	// MCPAuthURL the endpoint of an MCP server that wants its tokens, if
	// there are: the MCP console's "oauth" and "mcp-auth" targets.
	OAuthURL   string
	MCPAuthURL string

	// Hosts are the names, beyond localhost and the loopback addresses,
	// by which other machines reach a playground that listens beyond
	// loopback (wirelab serve --addr 0.0.0.0:8018, say). Whatever they
	// are, the playground answers only requests for its own hosts and, of
	// those from web pages, only those of its own pages (loopback.Site);
	// and only pages on this machine may start processes, build code,
	// reach custom targets or change progress (isLoopbackPeer).
	Hosts []string

	// Progress is the learner's progress, shown on the home page and the
	// exercise pages and saved when a page on this machine passes a
	// check. Nil means none is kept.
	Progress *progress.Store

	// Executable is the wirelab binary, which the playground starts as
	// "wirelab server stdio" and "wirelab server mcp" for the runnable
	// frames of the stdio targets. Empty means those targets are off.
	Executable string

	// Hub configures the engine's room: the bus that carries the
	// presenter to followers on other playgrounds (NATS), and its name.
	// Nil means this playground alone.
	Hub *wire.HubOptions

	// Classroom, when set, opens the playground to a room (wirelab serve
	// --classroom): pages from other machines need the join code first
	// (classroom.go). Without a Room of its own, it only shows the
	// dashboard of the room that Hub's bus shares (classroom_spread.go).
	Classroom *Classroom
}

// Playground is the playground's handler. Close it to end the pages'
// sessions and stop the servers they started.
type Playground struct {
	handler http.Handler
	hub     *wire.Hub
}

// ServeHTTP serves the pages, the static files and the websocket.
func (p *Playground) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.handler.ServeHTTP(w, r) }

// Close ends every websocket session, stops their child processes, and
// waits for them. It is idempotent.
func (p *Playground) Close() { p.hub.Close() }

// New returns the playground for the catalogue.
func New(cat *tools.Catalogue, opts *Options) *Playground {
	if opts == nil {
		opts = &Options{}
	}
	site := &loopback.Site{Hosts: opts.Hosts}
	h := wire.NewHub(wire.Targets{Executable: opts.Executable, HTTPURL: opts.HTTPURL, HTTPAuthURL: opts.HTTPAuthURL, GRPCAddr: opts.GRPCAddr, MCPURL: opts.MCPURL, A2AURL: opts.A2AURL,
		OAuthURL: opts.OAuthURL, MCPAuthURL: opts.MCPAuthURL}, site, opts.Hub)
	view := homeView{
		Tools:    cat.List(),
		HTTPURL:  opts.HTTPURL,
		GRPCAddr: opts.GRPCAddr,
		MCPURL:   opts.MCPURL,
		A2AURL:   opts.A2AURL,
		Servers: []serverRow{
			{Protocol: "stdio", Command: "wirelab server stdio", Child: true},
			{Protocol: "HTTP", Command: "wirelab server http --addr 127.0.0.1:8019", URL: opts.HTTPURL},
			{Protocol: "HTTP + bearer", Command: "wirelab server http --addr 127.0.0.1:8024 --token reader --token ops:deploy:production", URL: opts.HTTPAuthURL},
			{Protocol: "gRPC", Command: "wirelab server grpc --addr 127.0.0.1:8020", URL: opts.GRPCAddr},
			{Protocol: "MCP", Command: "wirelab server mcp --http 127.0.0.1:8021", URL: opts.MCPURL, Stdio: "wirelab server mcp"},
			{Protocol: "A2A", Command: "wirelab server a2a --addr 127.0.0.1:8022", URL: opts.A2AURL},
			{Protocol: "OAuth", Command: "wirelab server oauth --addr 127.0.0.1:8023", URL: opts.OAuthURL},
			{Protocol: "MCP + OAuth", Command: "wirelab server mcp --http 127.0.0.1:8025 --auth http://127.0.0.1:8023", URL: opts.MCPAuthURL},
		},
	}
	lessons := newLessonSite(chapters.FS)
	x := newExerciseSite(h, opts.Progress, lessons.lessons)
	room := newClassroomSite(opts.Classroom, h)
	mux := routes(h, &homeSite{view: view, exercises: x, classroom: room}, lessons, newConsoleSite(h.Targets(), h),
		&fiveWiresSite{columns: fiveWiresColumns(h.Targets())}, x)
	var pages http.Handler = mux
	switch {
	case room != nil && room.room != nil:
		classroomRoutes(mux, room)
		pages = room.access(mux)
	case room != nil:
		roomDashboardRoutes(mux, room)
	}
	return &Playground{hub: h, handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ref := site.Check(r); ref != nil {
			http.Error(w, ref.Reason, ref.Status)
			return
		}
		pages.ServeHTTP(w, r)
	})}
}

func tryHTTP(url string) string {
	return strings.Join([]string{
		fmt.Sprintf(`curl -s %s/tools`, url),
		fmt.Sprintf(`curl -s %s/execute -H 'Content-Type: application/json' \`, url),
		`  -d '{"name":"word_count","args":{"text":"read the wire"}}'`,
	}, "\n")
}

func tryGRPC(addr string) string {
	return strings.Join([]string{
		fmt.Sprintf(`wirelab client grpc --addr %s --wire word_count text="read the wire"`, addr),
		fmt.Sprintf(`grpcurl -plaintext %s list`, addr),
	}, "\n")
}

func tryMCP(url string) string {
	return strings.Join([]string{
		fmt.Sprintf(`curl -i %s -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \`, url),
		`  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'`,
		fmt.Sprintf(`wirelab client mcp --url %s word_count text="read the wire"`, url),
	}, "\n")
}

func tryA2A(url string) string {
	return strings.Join([]string{
		fmt.Sprintf(`curl -s %s/.well-known/agent-card.json`, url),
		fmt.Sprintf(`wirelab client a2a --url %s "deploy api-gateway"`, url),
	}, "\n")
}

const tryStdio = `echo '{"name":"word_count","args":{"text":"read the wire"}}' | wirelab server stdio`
