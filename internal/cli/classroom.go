package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/exercises/progress"
	"github.com/wirelab/wirelab/internal/classroom"
	"github.com/wirelab/wirelab/playground"
)

// classroomAddr is where `wirelab serve --classroom` listens unless
// --addr says otherwise: every address of this machine, on a port that
// is easy to say aloud.
const classroomAddr = "0.0.0.0:8080"

// openClassroom makes the room of `wirelab serve --classroom`, whose
// playground listens on ln, with code (empty: a random one), and tells
// the instructor on stderr where the room joins and with which code.
func openClassroom(ln net.Listener, code string, stderr io.Writer) *playground.Classroom {
	room := classroom.New(&classroom.Options{Code: code})
	tcp, _ := ln.Addr().(*net.TCPAddr)
	urls := joinURLs(tcp, machineAddrs())
	c := &playground.Classroom{Room: room, JoinURLs: urls}
	// The session log, when the instructor asks for one, goes beside the
	// progress: the one folder of wirelab's own.
	if p, err := progress.DefaultPath(); err == nil {
		c.LogDir = filepath.Dir(p)
	}
	for _, u := range urls {
		fmt.Fprintf(stderr, "wirelab: classroom: students join at %s\n", u)
	}
	fmt.Fprintf(stderr, "wirelab: classroom: the join code is %s\n", room.Code())
	if len(urls) > 0 {
		fmt.Fprintf(stderr, "wirelab: classroom: a student with wirelab of their own runs: wirelab serve --follow %s?code=%s\n", urls[0], room.Code())
	}
	if tcp != nil && tcp.IP.IsLoopback() {
		fmt.Fprintf(stderr, "wirelab: classroom: %s is on loopback: no other machine can join; use --addr %s\n", tcp, classroomAddr)
	}
	fmt.Fprintf(stderr, "wirelab: classroom: pages on other machines need the code; they may read, follow sessions and check frame exercises; "+
		"only pages on this machine may start servers, build code, use custom targets or save progress\n")
	return c
}

// joinURLs are the join page's addresses for a playground listening on
// addr: that address, or, for 0.0.0.0 and [::], each of this machine's
// (machine), IPv4 first (a private address first of all: the room's
// network), IPv6 after; never a link-local one, which needs a zone no
// browser takes.
func joinURLs(addr *net.TCPAddr, machine []net.IP) []string {
	if addr == nil {
		return nil
	}
	ips := []net.IP{addr.IP}
	if addr.IP.IsUnspecified() {
		ips = nil
		for _, ip := range machine {
			if !ip.IsLoopback() && !ip.IsLinkLocalUnicast() && !ip.IsUnspecified() {
				ips = append(ips, ip)
			}
		}
		slices.SortStableFunc(ips, func(a, b net.IP) int { return rank(a) - rank(b) })
	}
	port := strconv.Itoa(addr.Port)
	var urls []string
	for _, ip := range ips {
		urls = append(urls, "http://"+net.JoinHostPort(ip.String(), port)+"/join")
	}
	return urls
}

// rank orders the addresses a room is likelier to reach first.
func rank(ip net.IP) int {
	switch {
	case ip.To4() != nil && ip.IsPrivate():
		return 0
	case ip.To4() != nil:
		return 1
	}
	return 2
}

// machineAddrs are the addresses of this machine's interfaces that are up.
func machineAddrs() []net.IP {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var ips []net.IP
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if ipnet, ok := a.(*net.IPNet); ok {
				ips = append(ips, ipnet.IP)
			}
		}
	}
	return ips
}

// instructorListener is the second listener of a playground that
// listens on one address of this machine that is not loopback, a
// classroom or not: the same port on 127.0.0.1, since only a page on
// this machine, reaching it over loopback, is this machine's (a page
// opened at that address comes from that address, as another machine's
// would). Nil when the playground listens on loopback or on every
// address already, or when the port is taken on loopback (said on
// stderr).
func instructorListener(ln net.Listener, stderr io.Writer) net.Listener {
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() || tcp.IP.IsUnspecified() {
		return nil
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port)))
	if err != nil {
		fmt.Fprintf(stderr, "wirelab: cannot listen on 127.0.0.1:%d for this machine's own pages (%v); "+
			"pages opened at %s count as another machine's: they read and follow, and start nothing\n", tcp.Port, err, tcp)
		return nil
	}
	return l
}

// listensEverywhere reports whether ln listens on every address (0.0.0.0
// or ::), loopback among them.
func listensEverywhere(ln net.Listener) bool {
	tcp, ok := ln.Addr().(*net.TCPAddr)
	return ok && tcp.IP.IsUnspecified()
}

// instructorURL is where the instructor opens the playground on this
// machine: over loopback, on the playground's port.
func instructorURL(ln net.Listener) string {
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !ok {
		return "http://" + ln.Addr().String()
	}
	if tcp.IP.IsLoopback() {
		return "http://" + tcp.String()
	}
	return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
}

// serveBoth serves h on ln and, if it is not nil, on extra, until ctx
// ends; the first error of either is returned.
func serveBoth(ctx context.Context, ln, extra net.Listener, h http.Handler) error {
	if extra == nil {
		return serveHTTP(ctx, ln, h)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	// This goroutine ends when ctx ends: below, when the main listener's
	// serving ends, or when the caller's ctx does.
	go func() {
		err := serveHTTP(ctx, extra, h)
		cancel()
		errc <- err
	}()
	err := serveHTTP(ctx, ln, h)
	cancel()
	return errors.Join(err, <-errc)
}

// goodCode reports whether an instructor's own join code (--code) is one
// a room can type and cannot guess in a lesson's time: letters and
// digits, at least as long as a random one. Several playgrounds of one
// classroom (--nats) share it.
func goodCode(code string) bool {
	c := classroom.NormalizeCode(code)
	return len(c) >= classroom.CodeLength && strings.Trim(c, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == ""
}

// flagGiven reports whether the command line set the flag name.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
