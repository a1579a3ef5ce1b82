package wire

import (
	"context"
	"errors"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// A real gRPC client dials once and sends every call on the same HTTP/2
// connection, each on a stream of its own: the preface and SETTINGS are
// paid once, and the header compression (HPACK) of each direction learns
// the headers that repeat, so that a second call's HEADERS are a few
// bytes of table indexes. Capture dials for each call, which shows the
// whole connection but times a dial with every call. A Client keeps the
// connection, and the descriptors reflection returned, between calls.

// Client makes captured calls to one gRPC server over a connection it
// keeps open between them. The first call's capture shows the connection
// opening (the preface, SETTINGS and their ACKs); each later one shows the
// frames that crossed since the previous capture ended: usually the call's
// own HEADERS, DATA and trailers, and the connection's PINGs and
// WINDOW_UPDATEs around them, and Exchange.EarlierCalls says the
// connection was reused.
//
// A Client makes one call at a time, so that a capture holds one call: a
// call made while another is under way is captured on a connection of its
// own, as Capture makes it. After a call that could not be made, or that
// ended UNAVAILABLE, UNIMPLEMENTED or INTERNAL (the connection broke, or
// the server may have been rebuilt with another contract), and when the
// server has closed the connection, the Client starts over: a new
// connection and fresh descriptors on the next call. A call that the
// client ended itself, at its deadline or cancelled, closes the
// connection, so that its capture shows the client's RST_STREAM (see
// Capture).
type Client struct {
	target string
	creds  credentials.TransportCredentials

	mu     sync.Mutex // guards the fields below; held for a whole call
	cc     *grpc.ClientConn
	rec    *recording                      // what cc's connections carried; nil with cc
	files  map[string]*protoregistry.Files // descriptors by service, asked by reflection
	closed bool
}

// NewClient returns a Client for the server at target ("host:port"). A nil
// creds means plaintext HTTP/2. Nothing is dialed before the first call.
func NewClient(target string, creds credentials.TransportCredentials) *Client {
	if creds == nil {
		creds = insecure.NewCredentials()
	}
	return &Client{target: target, creds: creds}
}

// errClientClosed is the answer to a call on a closed Client.
var errClientClosed = errors.New("the gRPC client is closed")

// Capture makes one call of method, as the package's Capture does (see
// there for method, request and the errors), on the Client's connection.
// opts.Creds is not used: the Client's creds secure its connection.
func (c *Client) Capture(ctx context.Context, method string, request []byte, opts *Options) (*Exchange, error) {
	if opts == nil {
		opts = &Options{}
	}
	if !c.mu.TryLock() {
		// A call is under way, perhaps a stream that lasts a minute: this
		// one gets a connection of its own rather than wait, and rather
		// than share frames with it.
		own := *opts
		own.Creds = c.creds
		return Capture(ctx, c.target, method, request, &own)
	}
	defer c.mu.Unlock()
	if c.closed {
		return nil, errClientClosed
	}
	if c.cc != nil && c.cc.GetState() != connectivity.Ready {
		// The server closed the connection (it went idle, or the server
		// restarted): what it described may have changed too.
		c.forget()
	}
	e, err := c.capture(ctx, method, request, opts, false)
	switch {
	case err != nil, e.Code == codes.Unavailable, e.Code == codes.Unimplemented, e.Code == codes.Internal:
		c.forget()
	case c.cc != nil && c.cc.GetState() == connectivity.Shutdown:
		c.forget() // capture closed it
	}
	return e, err
}

// Close closes the connection, after the call under way, if any, has
// ended; cancel that call's context to end it sooner. Calls after Close
// fail. Close stops every goroutine the Client started.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.forget()
	return nil
}

// forget closes the connection and drops the descriptors. The caller
// holds c.mu.
func (c *Client) forget() {
	if c.cc != nil {
		// Close waits for the connection's goroutines to end.
		c.cc.Close()
	}
	c.cc, c.rec, c.files = nil, nil, nil
}

// descriptors returns the files that describe service: opts.Files, or
// what the server said by reflection, asked once. The caller holds c.mu.
func (c *Client) descriptors(ctx context.Context, service string, opts *Options) (*protoregistry.Files, error) {
	if opts.Files != nil {
		return opts.Files, nil
	}
	if files := c.files[service]; files != nil {
		return files, nil
	}
	files, err := askServer(ctx, c.target, service, c.creds, opts.Metadata)
	if err != nil {
		return nil, err
	}
	if c.files == nil {
		c.files = map[string]*protoregistry.Files{}
	}
	c.files[service] = files
	return files, nil
}

// conn returns the connection to call on, made on first use. grpc-go
// dials it lazily; the recording wraps every connection it makes. The
// caller holds c.mu.
func (c *Client) conn() (*grpc.ClientConn, *recording, error) {
	if c.cc == nil {
		rec := &recording{limit: maxRecorded}
		cc, err := grpc.NewClient(c.target, grpc.WithTransportCredentials(&recordingCreds{inner: c.creds, rec: rec}))
		if err != nil {
			return nil, nil, err
		}
		c.cc, c.rec = cc, rec
	}
	return c.cc, c.rec, nil
}
