// Package loopback guards servers that listen on a loopback address
// against the web pages open in the same user's browser.
//
// A server on 127.0.0.1 is out of reach of the network, but not of those
// pages. Two checks close the gap:
//
// DNS rebinding: a page from attacker.example waits until its DNS name
// resolves to 127.0.0.1, then calls "its own" site, which is now the local
// server; the browser's same-origin rule sees nothing wrong. The request
// still says "Host: attacker.example", so a loopback server answers only
// requests whose Host is a loopback name and refuses the rest with 421,
// which RFC 9110 section 15.5.20 defines as a request "directed at a server
// that is unable or unwilling to produce an authoritative response for the
// target URI".
//
// Cross-site requests: any page may send a POST to http://127.0.0.1:PORT.
// Browsers add an Origin header (RFC 6454 section 7) to every POST and every
// cross-origin fetch, so a request whose Origin is some other site came from
// a web page, not from a tool client, and is refused with 403. Clients that
// are not browsers send no Origin and are not affected.
package loopback

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Refusal says why a request must not be answered.
type Refusal struct {
	Status int    // http.StatusMisdirectedRequest or http.StatusForbidden
	Reason string // a sentence for the error body
}

// Check returns the refusal for a request that a loopback server must not
// answer, or nil if the request may proceed.
func Check(r *http.Request) *Refusal {
	if !IsLocalHost(r.Host) {
		return &Refusal{
			Status: http.StatusMisdirectedRequest,
			Reason: "this server listens on a loopback address and answers only requests for localhost, 127.0.0.1 or [::1]; Host was " + quote(r.Host),
		}
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		if err != nil || !IsLocalHost(u.Host) {
			return &Refusal{
				Status: http.StatusForbidden,
				Reason: "requests from web pages are refused unless the page itself is on this machine; Origin was " + quote(origin),
			}
		}
	}
	return nil
}

// IsLocalHost reports whether a Host value ("name", "name:port",
// "[v6]:port") names this machine: localhost or a loopback IP literal.
func IsLocalHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// quote quotes a header value for a message, cut short so that a huge
// header cannot make a huge answer.
func quote(v string) string {
	const max = 100
	if len(v) > max {
		v = v[:max] + "..."
	}
	return `"` + strings.ReplaceAll(v, `"`, `\"`) + `"`
}
