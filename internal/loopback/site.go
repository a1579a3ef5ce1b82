package loopback

import (
	"net"
	"net/http"
	"strings"
)

// Site is the stricter check of a server whose pages are the only pages
// allowed to drive it, such as the playground: a page on another port of
// this machine (another local dev server, with an XSS of its own) is as
// foreign as a page on the web.
//
// A request must be for one of the site's hosts: a loopback name, or one
// of Hosts, the names by which other machines reach a site that listens
// beyond loopback. A request that carries an Origin must come from the
// site's own origin: scheme, host and port, which is the Host it was sent
// to (RFC 6454 section 4).
type Site struct {
	// Hosts are the host names or IP literals, without ports, that the
	// site answers besides localhost, 127.0.0.0/8 and ::1. Empty means
	// loopback only.
	Hosts []string
}

// Check returns the refusal for a request the site must not answer, or
// nil if it may proceed.
func (s *Site) Check(r *http.Request) *Refusal {
	if !s.isHost(r.Host) {
		return &Refusal{
			Status: http.StatusMisdirectedRequest,
			Reason: "this server answers only requests for its own address (" + s.names() + "); Host was " + quote(r.Host),
		}
	}
	if origin := r.Header.Get("Origin"); origin != "" && !strings.EqualFold(origin, "http://"+r.Host) {
		return &Refusal{
			Status: http.StatusForbidden,
			Reason: "only this server's own pages (http://" + r.Host + ") may send this request; Origin was " + quote(origin),
		}
	}
	return nil
}

func (s *Site) isHost(hostport string) bool {
	if IsLocalHost(hostport) {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	for _, h := range s.Hosts {
		if strings.EqualFold(host, h) {
			return true
		}
	}
	return false
}

func (s *Site) names() string {
	return strings.Join(append([]string{"localhost", "127.0.0.1", "[::1]"}, s.Hosts...), ", ")
}
