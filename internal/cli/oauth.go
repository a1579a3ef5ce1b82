package cli

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/protocols/oauth"
)

const defaultOAuthAddr = "127.0.0.1:8023"

// serverOAuth is `wirelab server oauth`: the teaching authorization
// server. Its issuer is http://ADDR, the address it listens on, so the
// line "wirelab: oauth server listening on URL" names the issuer too.
func serverOAuth(ctx context.Context, args []string, env Env) error {
	fs := flags("server oauth")
	addr := fs.String("addr", defaultOAuthAddr, "address to listen on; port 0 picks a free one")
	var specs repeated
	fs.Var(&specs, "client", "pre-registered client, ID[:SECRET]=REDIRECT_URI (repeatable; repeat an ID to add redirect URIs)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("server oauth takes no arguments, got %q", fs.Arg(0))
	}
	clients, err := parseOAuthClients(specs)
	if err != nil {
		return usageErrorf("%v", err)
	}
	ln, loopback, err := listen(*addr, "--addr", "oauth", "http://", env.Stderr)
	if err != nil {
		return err
	}
	s := oauth.NewServer(oauth.Options{
		Issuer: issuerFor(ln.Addr()), Clients: clients, Loopback: loopback, Log: logger(env.Stderr),
	})
	return serveHTTP(ctx, ln, s)
}

// issuerFor is the issuer of a server listening on a: its address, with
// 127.0.0.1 for an unspecified IP (0.0.0.0), which no client can call.
func issuerFor(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if ok && tcp.IP.IsUnspecified() {
		return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
	}
	return "http://" + a.String()
}

// parseOAuthClients parses --client values, ID[:SECRET]=REDIRECT_URI,
// merging the redirect URIs of one ID.
func parseOAuthClients(specs []string) ([]oauth.Client, error) {
	var clients []oauth.Client
	index := map[string]int{}
	for _, spec := range specs {
		who, redirect, ok := strings.Cut(spec, "=")
		if !ok || who == "" || redirect == "" {
			return nil, fmt.Errorf("--client %q: want ID[:SECRET]=REDIRECT_URI, such as app:s3cret=http://127.0.0.1:3000/callback", spec)
		}
		id, secret, _ := strings.Cut(who, ":")
		i, seen := index[id]
		if !seen {
			index[id], i = len(clients), len(clients)
			clients = append(clients, oauth.Client{ID: id, Secret: secret})
		} else if clients[i].Secret != secret {
			return nil, fmt.Errorf("--client %s is given twice with different secrets", id)
		}
		clients[i].RedirectURIs = append(clients[i].RedirectURIs, redirect)
		if err := clients[i].Check(); err != nil {
			return nil, fmt.Errorf("--client %q: %v", spec, err)
		}
	}
	return clients, nil
}
