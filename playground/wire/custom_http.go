package wire

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// A learner's own HTTP server (an MCP endpoint, an A2A agent, a JSON API)
// is reached by URL, http:// or https://. Under TLS the playground still
// shows the bytes of the exchange: those it writes into the TLS
// connection and reads out of it, the HTTP/1.1 request and answer in
// plaintext, as the server's HTTP layer sees them; a note says how the
// connection is secured. Its certificate is verified against the system
// roots, or against the CA file named after the URL:
//
//	http://127.0.0.1:3001/mcp
//	https://mcp.example.com/mcp
//	https://localhost:8443/mcp -cacert /home/me/ca.pem

// httpTo is where a custom-http target is, read from its "to".
type httpTo struct {
	url    *url.URL
	cacert string // a CA file that verifies the server's certificate; "" for the system roots
}

// parseHTTPTo reads a custom-http "to": a URL, then perhaps -cacert FILE.
func parseHTTPTo(to string) (httpTo, error) {
	words := strings.Fields(to)
	if len(words) == 0 {
		return httpTo{}, say(noteHTTPNeeds, customExample("custom-http"))
	}
	var t httpTo
	for i := 1; i < len(words); i++ {
		if words[i] != "-cacert" || i+1 == len(words) {
			return httpTo{}, say(noteHTTPOnlyCACert, strings.Join(words[i:], " "))
		}
		t.cacert = words[i+1]
		i++
	}
	scheme, _, _ := strings.Cut(words[0], "://")
	switch strings.ToLower(scheme) {
	case "http", "https":
	default:
		return httpTo{}, say(noteHTTPNeedsGot, customExample("custom-http"), to)
	}
	u, err := url.Parse(words[0])
	if err != nil || u.Host == "" {
		return httpTo{}, say(noteHTTPNeedsGot, customExample("custom-http"), to)
	}
	if t.cacert != "" && u.Scheme != "https" {
		return httpTo{}, say(noteHTTPCACertPlain, words[0])
	}
	t.url = u
	return t, nil
}

// dialHTTP opens the connection of one HTTP exchange to u: TCP, and for
// https the TLS handshake, said in a note. c is the command the exchange
// serves; a custom target's "to" may name the CA.
func (s *session) dialHTTP(ctx context.Context, c Command, u *url.URL) (net.Conn, error) {
	port := u.Port()
	if port == "" {
		// A URL without a port means its scheme's own.
		port = map[bool]string{false: "80", true: "443"}[u.Scheme == "https"]
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	var d net.Dialer
	raw, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, say(noteConnecting, addr, err)
	}
	if u.Scheme != "https" {
		return raw, nil
	}
	cfg := &tls.Config{ServerName: u.Hostname(), NextProtos: []string{"http/1.1"}, MinVersion: tls.VersionTLS12}
	trusts := say(noteTrustsSystem)
	if isCustom(c.Target) {
		to, err := parseHTTPTo(c.To)
		if err != nil {
			raw.Close()
			return nil, err
		}
		if to.cacert != "" {
			if cfg.RootCAs, err = s.hub.caPool(to.cacert); err != nil {
				raw.Close()
				return nil, err
			}
			trusts = say(noteTrustsCA, to.cacert)
		}
	}
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, tlsTrouble(addr, trusts, err)
	}
	st := conn.ConnectionState()
	leaf := st.PeerCertificates[0]
	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "note", Kind: "tls",
		Text: s.say(noteTLSHTTPS, tls.VersionName(st.Version), addr, certNames(leaf), leaf.Issuer.CommonName, trusts)})
	return conn, nil
}

// tlsTrouble says why a TLS handshake with an https server failed, and
// what to change (tlsDiagnosis), in the words of an https URL.
func tlsTrouble(addr string, trusts *notice, err error) error {
	return tlsDiagnosis(addr, trusts, err, tlsAdvice{
		unknown:   say(noteAdviceHTTPUnknown),
		wrongName: say(noteAdviceHTTPName),
		plaintext: say(noteAdviceHTTPPlain),
	})
}

// tlsAdvice is what to change for each way a handshake fails, in the
// words of the target's own settings.
type tlsAdvice struct{ unknown, wrongName, plaintext *notice }

// tlsDiagnosis says why a TLS handshake with addr failed, and what to
// change: the certificate's authority is unknown here, it is for another
// name, it is not valid, the server does not speak TLS, or it refused
// the handshake (as one that wants a client certificate does). trusts
// names what verified the certificate (the system roots, a CA file).
func tlsDiagnosis(addr string, trusts *notice, err error, a tlsAdvice) *notice {
	var (
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		header   tls.RecordHeaderError
		alert    tls.AlertError
	)
	switch {
	case errors.As(err, &unknown):
		issuer := say(noteUnnamedAuthority)
		if unknown.Cert != nil {
			issuer = say(noteVerbatim, fmt.Sprintf("%q", unknown.Cert.Issuer.CommonName))
		}
		return say(noteTLSUnknown, addr, issuer, trusts, a.unknown)
	case errors.As(err, &hostname):
		return say(noteTLSWrongName, addr, certNames(hostname.Certificate), hostname.Host, a.wrongName)
	case errors.As(err, &invalid):
		return say(noteTLSInvalid, addr, invalid)
	case errors.As(err, &header):
		return say(noteTLSNotTLS, addr, a.plaintext)
	case errors.As(err, &alert):
		return say(noteTLSRefused, addr, err)
	}
	return say(noteTLSFailed, addr, err)
}
