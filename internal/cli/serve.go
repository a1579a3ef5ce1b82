package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/internal/classroom"
	"github.com/wirelab/wirelab/playground"
	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/oauth"
	"github.com/wirelab/wirelab/protocols/tools"
)

// serve starts the playground and, beside it, the network servers (HTTP,
// gRPC, MCP over Streamable HTTP, A2A) on free loopback ports for the
// page to point at.
func serve(ctx context.Context, args []string, env Env) error {
	fs := flags("serve")
	addr := fs.String("addr", defaultServeAddr, "address of the playground")
	noOpen := fs.Bool("no-open", false, "do not open a browser")
	inClass := fs.Bool("classroom", false, "open the playground to a room: a join code, a QR code, a dashboard")
	follow := fs.String("follow", "", "join the classroom at this join URL and follow its presenter beside your own consoles")
	code := fs.String("code", "", "the join code: for --follow, when its URL has no ?code=; for --classroom, instead of a random one")
	name := fs.String("name", "", "your name on the instructor's list, for --follow (default: your login name)")
	natsURL := fs.String("nats", "", "share the presenter with every playground on this NATS server (nats://HOST:4222)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("serve takes no arguments, got %q", fs.Arg(0))
	}
	if *inClass && !flagGiven(fs, "addr") {
		*addr = classroomAddr
	}
	// A student's wirelab joins before it starts anything, so that a
	// wrong code is said at once.
	var teacher *instructor
	switch {
	case *follow != "" && *inClass:
		return usageErrorf("--classroom opens a classroom and --follow joins one: one or the other")
	case *follow != "":
		u, c, err := followTarget(*follow, *code)
		if err != nil {
			return err
		}
		who := *name
		if who == "" {
			who = defaultName()
		}
		if teacher, err = joinInstructor(ctx, u, c, who); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wirelab: joined the classroom at %s as %s\n", u, classroom.CleanName(who))
	case *inClass && *code != "" && !goodCode(*code):
		return usageErrorf("--code for a classroom: at least %d letters and digits, such as K7P2QX; got %q", classroom.CodeLength, *code)
	case !*inClass && *code != "":
		return usageErrorf("--code goes with --follow JOIN_URL or --classroom")
	case *name != "":
		return usageErrorf("--name goes with --follow JOIN_URL")
	}
	cat := tools.New(nil)
	// The http-auth target is a second HTTP tool server, one that wants
	// bearer tokens, so that 401 and 403 can be seen beside the open one.
	tokens, err := tools.ParseTokens(playground.AuthTokens())
	if err != nil {
		return fmt.Errorf("the http-auth server's tokens: %w", err)
	}

	reachable := reachableWarning
	if *inClass {
		// The instructor chose to be reached: say by whom, and with what.
		reachable = "wirelab: classroom: %s is reachable from other machines: browsers with the join code follow, read-only; " +
			"nothing they do starts a process or changes your progress\n"
	}
	ln, loopback, err := listenReachable(*addr, "--addr", "playground", "http://", reachable, env.Stderr)
	if err != nil {
		return err
	}
	// With --nats, the dashboard spans the playgrounds of the room: a
	// classroom tells the others who follows it and lists theirs; a
	// playground with no classroom of its own (the instructor's laptop,
	// which presents) shows the room's dashboard on this machine.
	var others *classroom.Others
	if *natsURL != "" && teacher == nil {
		others = classroom.NewOthers(nil)
	}
	var room *playground.Classroom
	var instructorLn net.Listener // 127.0.0.1 too, for a playground on one address that is not loopback
	if !loopback {
		instructorLn = instructorListener(ln, env.Stderr)
	}
	switch {
	case *inClass && !loopback && instructorLn == nil && !listensEverywhere(ln):
		// The instructor's pages are those opened over loopback, and
		// another program holds the port there: a classroom nobody can
		// present to, whose printed address would open that program.
		ln.Close()
		return fmt.Errorf("classroom: 127.0.0.1 at the port of %s is taken, and the instructor's pages (presenting, the dashboard) are served there; choose a port free on both, with --addr", ln.Addr())
	case *inClass:
		room = openClassroom(ln, *code, env.Stderr)
		room.Others = others
	case !loopback:
		fmt.Fprintf(env.Stderr, "wirelab: pages on other machines may read the course and follow sessions; "+
			"only pages on this machine may start servers, build code, use custom targets or save progress\n")
		if instructorLn != nil {
			fmt.Fprintf(env.Stderr, "wirelab: this machine's pages are those opened at %s/\n", instructorURL(ln))
		}
	}
	// One free loopback port per server; each listener is closed by the
	// server that serves it, or below if a later one cannot open.
	var lns []net.Listener
	for _, s := range []struct{ proto, scheme string }{{"http", "http://"}, {"grpc", ""}, {"mcp", "http://"}, {"a2a", "http://"}, {"http-auth", "http://"}, {"oauth", "http://"}, {"mcp-auth", "http://"}} {
		l, _, err := listen("127.0.0.1:0", "", s.proto, s.scheme, env.Stderr)
		if err != nil {
			ln.Close()
			if instructorLn != nil {
				instructorLn.Close()
			}
			for _, l := range lns {
				l.Close()
			}
			return err
		}
		lns = append(lns, l)
	}
	httpLn, grpcLn, mcpLn, a2aLn, authLn, oauthLn, mcpAuthLn := lns[0], lns[1], lns[2], lns[3], lns[4], lns[5], lns[6]
	log := logger(env.Stderr)
	// The authorization server issues tokens for any resource, so that
	// the MCP server can be seen refusing one issued for another.
	issuer := issuerFor(oauthLn.Addr())
	authServer := oauth.NewServer(oauth.Options{Issuer: issuer, Loopback: true, Log: log})
	// Two MCP servers: an open one, which the consoles and lessons call
	// without a token, and one that takes the authorization server's
	// access tokens (the "mcp-auth" target), where the OAuth flow is
	// typed by hand.
	mcpServer := mcp.NewServer(cat, &mcp.ServerOptions{Version: implVersion(), Log: log})
	defer mcpServer.Close() // last: the work of tasks still running
	mcpHandler := mcpServer.HTTPHandler(&mcp.HTTPOptions{Loopback: true})
	mcpAuthURL := "http://" + mcpAuthLn.Addr().String() + mcp.Endpoint
	mcpAuthServer := mcp.NewServer(cat, &mcp.ServerOptions{Version: implVersion(), Log: log})
	defer mcpAuthServer.Close()
	mcpAuthHandler := mcpAuthServer.HTTPHandler(&mcp.HTTPOptions{
		Loopback: true, Verifier: mcp.NewVerifier(issuer, mcpAuthURL, nil)})
	agent := a2a.NewServer(&a2a.Options{Tools: cat, Loopback: true, Version: implVersion()})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Open streams end with their sessions and tasks: close those first,
	// or the graceful shutdowns would wait for them in vain.
	stopMCP := context.AfterFunc(ctx, mcpHandler.Close)
	defer stopMCP()
	stopMCPAuth := context.AfterFunc(ctx, mcpAuthHandler.Close)
	defer stopMCPAuth()
	stopA2A := context.AfterFunc(ctx, agent.Close)
	defer stopA2A()
	errc := make(chan error, len(lns))
	// These goroutines end when ctx ends (cancel above runs when serve returns).
	go func() {
		errc <- serveHTTP(ctx, httpLn, httpjson.NewServer(cat, &httpjson.ServerOptions{Loopback: true, Log: log}))
	}()
	go func() {
		errc <- serveHTTP(ctx, authLn, httpjson.NewServer(cat, &httpjson.ServerOptions{Tokens: tokens, Loopback: true, Log: log}))
	}()
	go func() { errc <- serveGRPC(ctx, grpcLn, grpctool.NewServer(cat, &grpctool.ServerOptions{Log: log})) }()
	go func() { errc <- serveHTTP(ctx, mcpLn, mcpHandler) }()
	go func() { errc <- serveHTTP(ctx, a2aLn, agent) }()
	go func() { errc <- serveHTTP(ctx, oauthLn, authServer) }()
	go func() { errc <- serveHTTP(ctx, mcpAuthLn, mcpAuthHandler) }()

	url, page := "http://"+ln.Addr().String(), "/learn/"
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && (tcp.IP.IsUnspecified() || instructorLn != nil) {
		// Listening on every address, or on loopback beside one: this
		// machine's browser goes to loopback, where its pages are this
		// machine's (http://0.0.0.0 is not an address a page can be for,
		// and a page at the one address counts as another machine's).
		url = instructorURL(ln)
	}
	if room != nil {
		// The instructor's pages are those opened over loopback; the home
		// page shows the room's code and QR code, for the projector.
		url, page = instructorURL(ln), "/"
		fmt.Fprintf(env.Stderr, "wirelab: classroom: your pages, on this machine: %s/ (the code and QR code; who is here: %s/classroom)\n", url, url)
	}
	if room == nil && others != nil {
		fmt.Fprintf(env.Stderr, "wirelab: the followers of the classrooms on the NATS server, on this machine: %s/classroom\n", url)
		room = &playground.Classroom{Others: others}
		if p, err := progress.DefaultPath(); err == nil {
			room.LogDir = filepath.Dir(p) // the session log, if asked for, goes where a classroom's does
		}
	}
	if teacher != nil {
		page = followPage
		fmt.Fprintf(env.Stderr, "wirelab: the instructor's presenter beside your own console: %s%s\n", url, page)
	}
	if !*noOpen && env.OpenBrowser != nil {
		if err := env.OpenBrowser(url + page); err != nil {
			fmt.Fprintf(env.Stderr, "wirelab: could not open a browser (%v); open %s yourself\n", err, url+page)
		}
	}
	// The pages show and keep the same progress as `wirelab grade`.
	store, err := openProgress()
	if err != nil {
		fmt.Fprintf(env.Stderr, "wirelab: the pages will not keep your progress: %v\n", err)
	}
	// With --nats, the presenter's events cross to the playgrounds that
	// share the NATS server; without it, they stay in this process.
	var hubOpts *wire.HubOptions
	if *natsURL != "" {
		bus, err := wire.NewNATSBus(*natsURL)
		if err != nil {
			return err
		}
		defer bus.Close() // after the playground, which stops using it first
		bus.Report(env.Stderr)
		hubOpts = &wire.HubOptions{Bus: bus}
	}
	pg := playground.New(cat, &playground.Options{
		Progress:    store,
		HTTPURL:     "http://" + httpLn.Addr().String(),
		HTTPAuthURL: "http://" + authLn.Addr().String(),
		GRPCAddr:    grpcLn.Addr().String(),
		MCPURL:      "http://" + mcpLn.Addr().String() + mcp.Endpoint,
		A2AURL:      "http://" + a2aLn.Addr().String(),
		OAuthURL:    issuer,
		MCPAuthURL:  mcpAuthURL,
		Hosts:       siteHosts(ln.Addr(), loopback),
		Executable:  env.Executable,
		Classroom:   room,
		Hub:         hubOpts,
	})
	// The pages' websockets and the child servers they started end
	// first, so that the graceful shutdown does not wait for them.
	stopPG := context.AfterFunc(ctx, pg.Close)
	defer stopPG()
	stopFollowing := func() {}
	if teacher != nil {
		relayed, reported := following(ctx, pg, teacher, env.Stderr), reportingOwn(ctx, teacher)
		stopFollowing = func() { relayed(); reported() }
	}
	err = serveBoth(ctx, ln, instructorLn, pg)
	cancel()
	pg.Close() // wait for the children: they are in process groups of their own and would outlive us
	stopFollowing()
	for range lns {
		if serr := <-errc; err == nil {
			err = serr
		}
	}
	return err
}

// siteHosts are the names by which other machines reach a playground
// that listens beyond loopback: the address it listens on or, for
// 0.0.0.0 and [::], every address of this machine and its host name.
// The playground answers requests for no other host (loopback.Site).
func siteHosts(addr net.Addr, loopback bool) []string {
	tcp, ok := addr.(*net.TCPAddr)
	if loopback || !ok {
		return nil
	}
	if !tcp.IP.IsUnspecified() {
		return []string{tcp.IP.String()}
	}
	var hosts []string
	if name, err := os.Hostname(); err == nil {
		hosts = append(hosts, name)
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ipnet, ok := a.(*net.IPNet); ok && !ipnet.IP.IsLoopback() {
			hosts = append(hosts, ipnet.IP.String())
		}
	}
	return hosts
}
