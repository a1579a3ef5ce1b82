package wire

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// A learner's own gRPC server may want TLS, and the first thing that goes
// wrong with TLS is the handshake: a certificate from an authority this
// machine does not trust, a certificate for another name, or a server
// that does not speak TLS at all. grpc-go reports each as UNAVAILABLE with
// the reason deep in its message; watchedCreds keep the handshake's own
// outcome, typed, so that the console can say which it was and what to
// change.

// watchedCreds secure a custom target's connections, TLS or plaintext, and
// remember how the latest handshake went.
type watchedCreds struct {
	inner  credentials.TransportCredentials
	tls    bool
	trusts string // what verifies the server's certificate, for the notes: "the system roots", "the CA in FILE"
	last   *handshakeLog
}

// handshakeLog is the outcome of the latest handshake of a client's
// connections (grpc-go redials by itself, and clones the credentials).
type handshakeLog struct {
	mu    sync.Mutex // guards the fields below
	err   error      // the handshake's error, nil after one that worked
	state *tls.ConnectionState
	first []byte // plaintext: the server's first bytes, when they look like TLS
}

// newWatchedCreds returns credentials for TLS with cfg, or for plaintext
// HTTP/2 with a nil cfg.
func newWatchedCreds(cfg *tls.Config, trusts string) *watchedCreds {
	if cfg == nil {
		return &watchedCreds{inner: insecure.NewCredentials(), last: &handshakeLog{}}
	}
	return &watchedCreds{inner: credentials.NewTLS(cfg), tls: true, trusts: trusts, last: &handshakeLog{}}
}

func (c *watchedCreds) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	if !c.tls {
		// Nothing to shake hands about; but a TLS server answers the
		// HTTP/2 preface with a TLS alert, and those bytes say why the
		// connection then fails.
		conn, info, err := c.inner.ClientHandshake(ctx, authority, raw)
		if err != nil {
			return nil, nil, err
		}
		return &sniffer{Conn: conn, log: c.last}, info, nil
	}
	conn, info, err := c.inner.ClientHandshake(ctx, authority, raw)
	c.last.mu.Lock()
	c.last.err, c.last.state = err, nil
	if ti, ok := info.(credentials.TLSInfo); ok && err == nil {
		c.last.state = &ti.State
	}
	c.last.mu.Unlock()
	return conn, info, err
}

func (c *watchedCreds) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return c.inner.ServerHandshake(raw)
}

func (c *watchedCreds) Info() credentials.ProtocolInfo { return c.inner.Info() }

// Clone keeps the log: grpc-go handshakes with a clone.
func (c *watchedCreds) Clone() credentials.TransportCredentials {
	return &watchedCreds{inner: c.inner.Clone(), tls: c.tls, trusts: c.trusts, last: c.last}
}

func (c *watchedCreds) OverrideServerName(name string) error {
	return c.inner.OverrideServerName(name) //nolint:staticcheck // part of the interface
}

// sniffer keeps the first bytes a plaintext connection reads, if they
// are a TLS record (RFC 8446 section 5.1: a content type, 21 for an alert
// or 22 for a handshake, then the legacy version 3.x).
type sniffer struct {
	net.Conn
	log  *handshakeLog
	seen bool // the first read is past; only the reader touches it
}

func (s *sniffer) Read(p []byte) (int, error) {
	n, err := s.Conn.Read(p)
	if !s.seen && n > 0 {
		s.seen = true
		s.log.mu.Lock()
		s.log.first = nil
		if n >= 2 && (p[0] == 21 || p[0] == 22) && p[1] == 3 {
			s.log.first = append([]byte(nil), p[:min(n, 8)]...)
		}
		s.log.mu.Unlock()
	}
	return n, err
}

// says describes how the latest connection was secured, for a note on the
// page.
func (c *watchedCreds) says(addr string) string {
	if c == nil || !c.tls {
		return "plaintext HTTP/2 (h2c) to " + addr + ": nothing is encrypted, and the server is not authenticated"
	}
	c.last.mu.Lock()
	state := c.last.state
	c.last.mu.Unlock()
	if state == nil || len(state.PeerCertificates) == 0 {
		return "TLS to " + addr + ", verified against " + c.trusts
	}
	cert := state.PeerCertificates[0]
	return fmt.Sprintf("%s (%s) to %s: the server's certificate for %s, issued by %q, is verified against %s",
		tls.VersionName(state.Version), tls.CipherSuiteName(state.CipherSuite), addr, certNames(cert), cert.Issuer.CommonName, c.trusts)
}

// certNames lists the names a certificate is valid for.
func certNames(cert *x509.Certificate) string {
	names := append([]string(nil), cert.DNSNames...)
	for _, ip := range cert.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 {
		return fmt.Sprintf("%q (a common name only, which clients no longer accept as a host name)", cert.Subject.CommonName)
	}
	return strings.Join(names, ", ")
}

// explainCallError makes an error of a call that could not be made say
// which step failed, when the step was TLS's, and what to change.
func explainCallError(err error, d *grpcDial) error {
	if why := d.creds.diagnose(d.addr, err); why != "" {
		return errors.New(why)
	}
	return bytesHint(err)
}

// diagnose says what went wrong in the latest handshake, or "" when
// nothing did (or it cannot tell). err is the call's.
func (c *watchedCreds) diagnose(addr string, err error) string {
	if c == nil {
		return ""
	}
	c.last.mu.Lock()
	handshakeErr, first := c.last.err, c.last.first
	c.last.mu.Unlock()
	if !c.tls {
		switch {
		case first != nil:
			return fmt.Sprintf("the server at %s speaks TLS: it answered the plaintext HTTP/2 preface with a TLS record (% x). Choose TLS (the system roots, or the CA that signed its certificate)", addr, first)
		case err != nil && strings.Contains(err.Error(), "server preface"):
			// A TLS server reads the client's "PRI * HTTP/2.0" as a
			// TLS record that is not one, and hangs up without a word.
			return fmt.Sprintf("the server at %s closed the connection without answering the HTTP/2 preface (%v). A TLS server does that to a plaintext client: if it serves TLS, choose TLS", addr, err)
		}
		return ""
	}
	if handshakeErr == nil {
		return ""
	}
	return tlsDiagnosis(addr, c.trusts, handshakeErr, tlsAdvice{
		unknown:   "give the CA certificate that signed it: a CA file on this machine, or its PEM pasted",
		wrongName: "connect by one of its names, or set the server name to verify (-servername) to one of them",
		plaintext: "a plaintext server: choose plaintext",
	})
}

// bytesHint adds to a request that ProtoJSON refused for a bytes field
// what such a field takes.
func bytesHint(err error) error {
	if !strings.Contains(err.Error(), "bytes field") {
		return err
	}
	return fmt.Errorf("%w. A bytes field takes base64 text in ProtoJSON (\"aGVsbG8=\" is hello); the console turns a JSON object or array typed there into its bytes, base64-encoded, before it sends", err)
}
