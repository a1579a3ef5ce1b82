package wire

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/credentials"
)

// testCA is a certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue signs a certificate for name, a server's (with its DNS name and
// 127.0.0.1) or a client's, and returns it and its key in PEM.
func (ca *testCA) issue(t *testing.T, name string, client bool) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if client {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	} else {
		tmpl.DNSNames, tmpl.IPAddresses = []string{name}, []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
}

// TestCustomGRPCMutualTLS calls a server that requires a client
// certificate (tls.RequireAndVerifyClientCert) with one, read from files
// and pasted; without one, or with one of another CA, the refusal says
// that the server wants a client certificate, and which was (not) sent.
func TestCustomGRPCMutualTLS(t *testing.T) {
	h, srv := startHub(t, Targets{})
	conn := dial(t, srv)
	readHello(t, conn)
	ca, other := newTestCA(t, "test CA"), newTestCA(t, "another CA")
	serverCert, serverKey := ca.issue(t, "localhost", false)
	clientCert, clientKey := ca.issue(t, "learner", true)
	strangerCert, strangerKey := other.issue(t, "stranger", true)
	pair, err := tls.X509KeyPair(serverCert, serverKey)
	if err != nil {
		t.Fatal(err)
	}
	clientCAs := x509.NewCertPool()
	clientCAs.AddCert(ca.cert)
	port := startBareGRPC(t, credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{pair}, ClientCAs: clientCAs, ClientAuth: tls.RequireAndVerifyClientCert}))

	dir := t.TempDir()
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	caFile, certFile, keyFile := write("ca.pem", ca.pem), write("me.pem", clientCert), write("me-key.pem", clientKey)
	strangerFile, strangerKeyFile := write("stranger.pem", strangerCert), write("stranger-key.pem", strangerKey)
	pasted, err := h.UploadGRPC(t.Context(), "cert", map[string][]byte{"pasted": append(append([]byte(nil), clientCert...), clientKey...)})
	if err != nil {
		t.Fatal(err)
	}
	if pasted.Source != `client certificate for "learner", issued by "test CA"` || strings.Contains(pasted.Source+pasted.Upload, "PRIVATE") {
		t.Errorf("the pasted certificate's description: %+v", pasted)
	}
	twoFiles, err := h.UploadGRPC(t.Context(), "cert", map[string][]byte{"me.pem": clientCert, "me-key.pem": clientKey})
	if err != nil {
		t.Fatal(err)
	}
	up, err := h.UploadGRPC(t.Context(), "proto", map[string][]byte{"tools.proto": mustRead(t, toolsProto)})
	if err != nil {
		t.Fatal(err)
	}
	base := "localhost:" + port + " -cacert " + caFile + " -proto " + up.Upload

	for i, tc := range []struct{ to, note string }{
		{base + " -cert " + certFile + " -key " + keyFile, "presents the client certificate in " + certFile + " (mutual TLS)"},
		{base + " -cert " + pasted.Upload + " -key " + pasted.Upload, "presents the client certificate pasted on the page (" + pasted.Upload + ")"},
		{base + " -cert " + twoFiles.Upload + " -key " + twoFiles.Upload, "presents the client certificate pasted on the page"},
	} {
		notes, dump, refusal := callCustom(t, conn, int64(i+1), tc.to, echoFrame)
		if refusal != "" {
			t.Fatalf("%s: %s", tc.to, refusal)
		}
		if !strings.Contains(dump, "OK (0)") || len(notes) != 1 || !strings.Contains(notes[0], tc.note) {
			t.Errorf("%s: notes %q, dump:\n%s", tc.to, notes, dump)
		}
	}
	for i, tc := range []struct{ to, want string }{
		{base, "this side sent no client certificate ("}, {base, "give one with its private key: -cert FILE -key FILE"},
		{base + " -cert " + strangerFile + " -key " + strangerKeyFile, "sent no client certificate: the client certificate in " + strangerFile + " is not signed by an authority the server asks for"},
		{base + " -cert " + certFile + " -key " + strangerKeyFile, "reading the client certificate"},
		{base + " -cert " + certFile, "give -cert and -key together"},
		{base + " -cert upload:0000000000000000 -key upload:0000000000000000", "no client certificate upload:0000000000000000 is held"},
		{base + " -cert " + pasted.Upload + " -key " + keyFile, "one upload holding the certificate and its key"},
	} {
		_, _, refusal := callCustom(t, conn, int64(10+i), tc.to, echoFrame)
		if !strings.Contains(refusal, tc.want) {
			t.Errorf("%s: refused with %q, want %q", tc.to, refusal, tc.want)
		}
		if strings.Contains(refusal, "PRIVATE KEY") {
			t.Errorf("%s: the refusal shows the key: %q", tc.to, refusal)
		}
	}
}

// TestUploadClientCert: a client certificate upload is the certificate
// and its matching key; anything else is refused, and a key is never in
// the answer.
func TestUploadClientCert(t *testing.T) {
	h, _ := startHub(t, Targets{})
	ca := newTestCA(t, "test CA")
	cert, key := ca.issue(t, "learner", true)
	_, otherKey := ca.issue(t, "other", true)
	for _, tc := range []struct {
		name  string
		parts map[string][]byte
		want  string
	}{
		{"no key", map[string][]byte{"pasted": cert}, "not a client certificate and its private key"},
		{"no certificate", map[string][]byte{"pasted": key}, "not a client certificate and its private key"},
		{"a key of another", map[string][]byte{"me.pem": cert, "key.pem": otherKey}, "private key does not match public key"},
		{"three files", map[string][]byte{"a": cert, "b": key, "c": cert}, "one file or two, not 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			desc, err := h.UploadGRPC(t.Context(), "cert", tc.parts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %+v, %v; want an error with %q", desc, err, tc.want)
			}
			if strings.Contains(err.Error(), string(key[40:80])) {
				t.Errorf("the error shows PEM: %v", err)
			}
		})
	}
	if _, err := h.UploadGRPC(t.Context(), "key", map[string][]byte{"k": key}); err == nil || !strings.Contains(err.Error(), "proto, protoset, ca or cert") {
		t.Errorf("an unknown kind: %v", err)
	}
}

// TestParseGRPCToClientCert reads -cert and -key as grpcurl does.
func TestParseGRPCToClientCert(t *testing.T) {
	g, err := parseGRPCTo("localhost:9443 -cacert ca.pem -cert 'my cert.pem' -key me-key.pem")
	if err != nil || !g.tls || g.certFile != "my cert.pem" || g.keyFile != "me-key.pem" {
		t.Errorf("got %+v, %v", g, err)
	}
	g, err = parseGRPCTo("localhost:9443 --cert upload:0a0b -key upload:0a0b")
	if err != nil || !g.tls || g.certFile != "upload:0a0b" {
		t.Errorf("got %+v, %v", g, err)
	}
	for to, want := range map[string]string{
		"localhost:9443 -key k.pem":                   "give -cert and -key together",
		"localhost:9443 -cert":                        "-cert needs a value",
		"localhost:9443 -cert c.pem -key":             "-key needs a value",
		"localhost:9443 -cert upload:1 -key k.pem":    "-cert upload:1 -key upload:1",
		"localhost:9443 -cert upload:1 -key upload:2": "-cert upload:1 -key upload:1",
		"localhost:9443 -certificate c.pem":           "-cacert FILE, -cert FILE, -key FILE, -servername NAME",
	} {
		if _, err := parseGRPCTo(to); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", to, err, want)
		}
	}
}
