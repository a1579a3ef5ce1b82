package wire

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
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
	client string // the client certificate this side presents, for the notes; "" for none
	last   *handshakeLog
}

// handshakeLog is the outcome of the latest handshake of a client's
// connections (grpc-go redials by itself, and clones the credentials).
type handshakeLog struct {
	mu    sync.Mutex // guards the fields below
	err   error      // the handshake's error, nil after one that worked
	state *tls.ConnectionState
	first []byte // plaintext: the server's first bytes, when they look like TLS
	// refused is the alert the server sent after the handshake, as the
	// first read's error. In TLS 1.3 the client's handshake is over
	// before the server has checked the client's certificate (RFC 8446
	// section 4.4.2): a server that wants one and got none, or one it
	// does not trust, says so with an alert on the client's first read.
	refused error
	// asked says the server asked for a client certificate (a
	// CertificateRequest), and sent whether this side sent one: Go's
	// client sends one only if it is signed by an authority the request
	// names. A server that then hangs up may do so before its alert is
	// read, so this is what tells that case apart.
	asked, sent bool
}

// newWatchedCreds returns credentials for TLS with cfg, or for plaintext
// HTTP/2 with a nil cfg.
func newWatchedCreds(cfg *tls.Config, trusts string) *watchedCreds {
	if cfg == nil {
		return &watchedCreds{inner: insecure.NewCredentials(), last: &handshakeLog{}}
	}
	log := &handshakeLog{}
	cfg = cfg.Clone()
	certs := cfg.Certificates
	cfg.Certificates = nil
	// The choice Go makes from Certificates, with the log kept.
	cfg.GetClientCertificate = func(req *tls.CertificateRequestInfo) (*tls.Certificate, error) {
		log.mu.Lock()
		defer log.mu.Unlock()
		log.asked = true
		for i := range certs {
			if req.SupportsCertificate(&certs[i]) == nil {
				log.sent = true
				return &certs[i], nil
			}
		}
		return &tls.Certificate{}, nil // none: an empty Certificate message
	}
	return &watchedCreds{inner: credentials.NewTLS(cfg), tls: true, trusts: trusts, last: log}
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
	c.last.mu.Lock()
	c.last.asked, c.last.sent = false, false
	c.last.mu.Unlock()
	conn, info, err := c.inner.ClientHandshake(ctx, authority, raw)
	c.last.mu.Lock()
	c.last.err, c.last.state, c.last.refused = err, nil, nil
	if ti, ok := info.(credentials.TLSInfo); ok && err == nil {
		c.last.state = &ti.State
	}
	c.last.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	return &alertWatch{Conn: conn, log: c.last}, info, nil
}

// alertWatch keeps the alert that ends a TLS connection's first read, if
// one does (handshakeLog.refused).
type alertWatch struct {
	net.Conn
	log  *handshakeLog
	seen bool // the first read is past; only the reader touches it
}

func (a *alertWatch) Read(p []byte) (int, error) {
	n, err := a.Conn.Read(p)
	if !a.seen && (n > 0 || err != nil) {
		a.seen = true
		if remoteAlert(err) != "" {
			a.log.mu.Lock()
			a.log.refused = err
			a.log.mu.Unlock()
		}
	}
	return n, err
}

// remoteAlert is the description of the TLS alert the peer sent that err
// reports ("certificate required"), or "". crypto/tls reports an alert
// it received as a net.OpError whose Op is "remote error" and whose Err
// says "tls: " and the alert's name (RFC 8446 section 6).
func remoteAlert(err error) string {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "remote error" || op.Err == nil {
		return ""
	}
	return strings.TrimPrefix(op.Err.Error(), "tls: ")
}

func (c *watchedCreds) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return c.inner.ServerHandshake(raw)
}

func (c *watchedCreds) Info() credentials.ProtocolInfo { return c.inner.Info() }

// Clone keeps the log: grpc-go handshakes with a clone.
func (c *watchedCreds) Clone() credentials.TransportCredentials {
	return &watchedCreds{inner: c.inner.Clone(), tls: c.tls, trusts: c.trusts, client: c.client, last: c.last}
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

// says describes how the latest connection was secured, in English, for
// what is not a tab's (a description of the server's methods).
func (c *watchedCreds) says(addr string) string { return c.saying(addr).Error() }

// saying describes how the latest connection was secured, for a note on
// the page.
func (c *watchedCreds) saying(addr string) *notice {
	if c == nil || !c.tls {
		return say(notePlaintextH2C, addr)
	}
	c.last.mu.Lock()
	state := c.last.state
	c.last.mu.Unlock()
	mutual := say(noteVerbatim, "")
	if c.client != "" {
		mutual = say(noteMutual, credsWords(c.client))
	}
	if state == nil || len(state.PeerCertificates) == 0 {
		return say(noteTLSTo, addr, credsWords(c.trusts), mutual)
	}
	cert := state.PeerCertificates[0]
	return say(noteTLSState, tls.VersionName(state.Version), tls.CipherSuiteName(state.CipherSuite), addr,
		certNames(cert), cert.Issuer.CommonName, credsWords(c.trusts), mutual)
}

// credsWords words what verifies a server's certificate, or the client
// certificate this side presents, in either language: grpcDial and
// clientCertSays (custom_grpc.go) name them in English, in these forms,
// and the watched credentials keep those words. Anything else is kept
// as it is.
func credsWords(s string) *notice {
	for _, f := range []struct {
		key            noteKey
		prefix, suffix string
	}{
		{noteTrustsMachine, "this machine's system roots", ""},
		{noteTrustsSystem, "the system roots", ""},
		{noteTrustsPasted, "the CA pasted on the page (", ")"},
		{noteTrustsCA, "the CA in ", ""},
		{noteClientCertPasted, "the client certificate pasted on the page (", ")"},
		{noteClientCertIn, "the client certificate in ", ""},
	} {
		rest, ok := strings.CutPrefix(s, f.prefix)
		if !ok || !strings.HasSuffix(rest, f.suffix) {
			continue
		}
		rest = strings.TrimSuffix(rest, f.suffix)
		if f.key == noteTrustsMachine || f.key == noteTrustsSystem {
			if rest != "" {
				continue
			}
			return say(f.key)
		}
		return say(f.key, rest)
	}
	return say(noteVerbatim, s)
}

// certNames lists the names a certificate is valid for.
func certNames(cert *x509.Certificate) *notice {
	names := append([]string(nil), cert.DNSNames...)
	for _, ip := range cert.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 {
		return say(noteCommonNameOnly, cert.Subject.CommonName)
	}
	return say(noteVerbatim, strings.Join(names, ", "))
}

// explainCallError makes an error of a call that could not be made say
// which step failed, when the step was TLS's, and what to change.
func explainCallError(err error, d *grpcDial) error {
	if why := d.creds.diagnosis(d.addr, err); why != nil {
		return why
	}
	return bytesHint(err)
}

// diagnose is diagnosis in English, or "" when there is none, for what
// is not a tab's (a description of the server's methods).
func (c *watchedCreds) diagnose(addr string, err error) string {
	if why := c.diagnosis(addr, err); why != nil {
		return why.Error()
	}
	return ""
}

// diagnosis says what went wrong in the latest handshake, or nil when
// nothing did (or it cannot tell). err is the call's.
func (c *watchedCreds) diagnosis(addr string, err error) *notice {
	if c == nil {
		return nil
	}
	c.last.mu.Lock()
	handshakeErr, first, refused, asked, sent := c.last.err, c.last.first, c.last.refused, c.last.asked, c.last.sent
	c.last.mu.Unlock()
	if !c.tls {
		switch {
		case first != nil:
			return say(noteSpeaksTLS, addr, first)
		case err != nil && strings.Contains(err.Error(), "server preface"):
			// A TLS server reads the client's "PRI * HTTP/2.0" as a
			// TLS record that is not one, and hangs up without a word.
			return say(noteNoPrefaceAnswer, addr, err)
		}
		return nil
	}
	if why := c.clientCertTrouble(addr, handshakeErr, refused); why != nil {
		return why
	}
	if asked && !sent && handshakeErr == nil && err != nil && strings.Contains(err.Error(), "code = Unavailable") {
		// The server asked, got none, and hung up: its alert was lost
		// to a write that found the connection closed.
		return c.noClientCert(addr, say(noteAskedThenClosed))
	}
	if handshakeErr == nil {
		return nil
	}
	return tlsDiagnosis(addr, credsWords(c.trusts), handshakeErr, tlsAdvice{
		unknown:   say(noteAdviceGRPCUnknown),
		wrongName: say(noteAdviceGRPCName),
		plaintext: say(noteAdviceGRPCPlain),
	})
}

// clientCertTrouble says what went wrong when the server refused this
// side's certificate, or wanted one and got none; nil when it did not.
// Which alert a server sends is its choice: Go's sends "certificate
// required" (TLS 1.3) or "bad certificate" (TLS 1.2) when none came, and
// "bad certificate" for one it does not trust; others send "unknown
// certificate authority" or "certificate unknown" for that. Either way
// the handshake failed (TLS 1.2) or the first read did (TLS 1.3).
func (c *watchedCreds) clientCertTrouble(addr string, errs ...error) *notice {
	for _, err := range errs {
		name := remoteAlert(err)
		switch name {
		case "certificate required", "bad certificate", "unknown certificate authority", "certificate unknown",
			"unsupported certificate", "certificate expired", "certificate revoked", "access denied":
		default:
			continue
		}
		if c.client == "" || name == "certificate required" {
			return c.noClientCert(addr, say(noteServerAlert, name))
		}
		return say(noteClientCertRefused, addr, credsWords(c.client), name)
	}
	return nil
}

// noClientCert says that the server wanted a client certificate and this
// side sent none, because it has none or because its certificate is not
// signed by an authority the server named; why is how the server said so.
func (c *watchedCreds) noClientCert(addr string, why *notice) *notice {
	if c.client == "" {
		return say(noteNoClientCertNone, addr, why)
	}
	return say(noteNoClientCertUnsigned, addr, credsWords(c.client), why)
}

// bytesHint adds to a request that ProtoJSON refused for a bytes field
// what such a field takes.
func bytesHint(err error) error {
	if !strings.Contains(err.Error(), "bytes field") {
		return err
	}
	return say(noteBytesHint, err)
}
