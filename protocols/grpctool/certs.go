package grpctool

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// certLifetime is how long the throwaway certificates are valid: long
// enough for any lesson, short enough that a leaked one soon expires.
const certLifetime = 24 * time.Hour

// Certs are a throwaway certificate authority and two certificates it
// signed: one for the server (valid for localhost and the loopback
// addresses) and one for a client, for mutual TLS. They are made fresh
// each time a server starts, so nothing secret is ever committed or
// reused; clients trust them by loading CA.
type Certs struct {
	CA                    []byte // PEM certificate of the authority
	ServerCert, ServerKey []byte // PEM
	ClientCert, ClientKey []byte // PEM
}

// NewCerts makes a new authority and signs a server and a client
// certificate with it. hosts are extra DNS names or IP addresses the
// server certificate is valid for, beyond localhost, 127.0.0.1 and ::1.
func NewCerts(hosts ...string) (*Certs, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caTmpl := template("wirelab throwaway CA")
	caTmpl.IsCA = true
	caTmpl.BasicConstraintsValid = true
	caTmpl.KeyUsage = x509.KeyUsageCertSign
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("signing the CA: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	c := &Certs{CA: pemBlock("CERTIFICATE", caDER)}

	server := template("wirelab server")
	server.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	for _, h := range append([]string{"localhost", "127.0.0.1", "::1"}, hosts...) {
		if ip := net.ParseIP(h); ip != nil {
			server.IPAddresses = append(server.IPAddresses, ip)
		} else {
			server.DNSNames = append(server.DNSNames, h)
		}
	}
	if c.ServerCert, c.ServerKey, err = sign(server, ca, caKey); err != nil {
		return nil, fmt.Errorf("signing the server certificate: %w", err)
	}
	client := template("wirelab client")
	client.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	if c.ClientCert, c.ClientKey, err = sign(client, ca, caKey); err != nil {
		return nil, fmt.Errorf("signing the client certificate: %w", err)
	}
	return c, nil
}

// ServerTLS is the server's side: its certificate, and with mutual TLS a
// demand that every client present a certificate signed by the CA. A
// client without one fails in the handshake, before any gRPC is spoken.
func (c *Certs) ServerTLS(mutual bool) (*tls.Config, error) {
	cert, err := tls.X509KeyPair(c.ServerCert, c.ServerKey)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if mutual {
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
		cfg.ClientCAs = x509.NewCertPool()
		cfg.ClientCAs.AppendCertsFromPEM(c.CA)
	}
	return cfg, nil
}

// Files are where [Certs.WriteFiles] put what a client needs.
type Files struct {
	CA, ClientCert, ClientKey string
}

// WriteFiles writes what a client needs (the CA, and the client
// certificate and key for mutual TLS) into dir as ca.pem, client.pem and
// client-key.pem. The server's key never leaves memory.
func (c *Certs) WriteFiles(dir string) (Files, error) {
	f := Files{
		CA:         filepath.Join(dir, "ca.pem"),
		ClientCert: filepath.Join(dir, "client.pem"),
		ClientKey:  filepath.Join(dir, "client-key.pem"),
	}
	err := errors.Join(
		os.WriteFile(f.CA, c.CA, 0o644),
		os.WriteFile(f.ClientCert, c.ClientCert, 0o644),
		os.WriteFile(f.ClientKey, c.ClientKey, 0o600),
	)
	return f, err
}

// ClientTLS loads what a client needs to talk TLS: the CA file to trust
// (empty: the system's roots), and for mutual TLS a certificate and key
// file (both empty: none).
func ClientTLS(caFile, certFile, keyFile string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		b, err := os.ReadFile(caFile)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(b) {
			return nil, fmt.Errorf("%s holds no PEM certificate", caFile)
		}
	}
	if (certFile == "") != (keyFile == "") {
		return nil, errors.New("a client certificate needs both a certificate file and a key file")
	}
	if certFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

func template(name string) *x509.Certificate {
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127)) // crypto/rand does not fail
	now := time.Now()
	return &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: name, Organization: []string{"wirelab"}},
		NotBefore:    now.Add(-time.Minute), // tolerate a little clock skew
		NotAfter:     now.Add(certLifetime),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
}

func sign(tmpl, ca *x509.Certificate, caKey *ecdsa.PrivateKey) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pemBlock("CERTIFICATE", der), pemBlock("PRIVATE KEY", keyDER), nil
}

func pemBlock(kind string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
}
