package wire

import (
	"context"
	"fmt"
	"net"
	"sync"

	"google.golang.org/grpc/credentials"
)

// The recorder sits between grpc-go's HTTP/2 transport and the connection
// it talks on. grpc-go hands every connection to its TransportCredentials
// for the handshake and then speaks HTTP/2 on whatever connection the
// handshake returns. Wrapping that returned connection therefore records
// plaintext HTTP/2 even when the handshake was TLS: the recorder sees the
// bytes after decryption on the way in and before encryption on the way
// out.

// recordingCreds are TransportCredentials that record every connection
// they secure.
type recordingCreds struct {
	inner credentials.TransportCredentials
	rec   *recording
}

func (c *recordingCreds) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	conn, info, err := c.inner.ClientHandshake(ctx, authority, raw)
	if err != nil {
		return nil, nil, err
	}
	return c.rec.wrap(conn), info, nil
}

// ServerHandshake is never called on a client, but the interface needs it.
func (c *recordingCreds) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return c.inner.ServerHandshake(raw)
}

func (c *recordingCreds) Info() credentials.ProtocolInfo { return c.inner.Info() }

// Clone keeps the recording: a clone that recorded elsewhere would lose
// connections.
func (c *recordingCreds) Clone() credentials.TransportCredentials {
	return &recordingCreds{inner: c.inner.Clone(), rec: c.rec}
}

// OverrideServerName is deprecated and unused by grpc-go, but still part
// of the interface.
func (c *recordingCreds) OverrideServerName(name string) error {
	return c.inner.OverrideServerName(name)
}

// maxRecorded bounds what one capture keeps, both ways together: far more
// than anyone reads, and a limit on the memory a server can take by
// streaming without end.
const maxRecorded = 8 << 20

// errRecordingFull ends a connection that has carried maxRecorded bytes;
// grpc-go then fails the call with UNAVAILABLE and this message.
var errRecordingFull = fmt.Errorf("the capture is full (%d MiB); the connection was closed", maxRecorded>>20)

// recording holds the bytes of every connection made for one call, usually
// exactly one.
type recording struct {
	mu    sync.Mutex // guards seq, total, conns, and the sent and recv chunks of every conn
	seq   int        // numbers chunks in the order they were recorded, across connections and directions
	total int        // bytes recorded so far
	limit int        // maxRecorded, except in tests
	conns []*recordedConn
}

// chunk is the bytes of one Read or Write.
type chunk struct {
	seq  int
	data []byte
}

// recordedConn is a connection whose every Read and Write is kept.
type recordedConn struct {
	net.Conn
	rec  *recording
	sent []chunk // client to server
	recv []chunk // server to client
}

func (r *recording) wrap(conn net.Conn) net.Conn {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := &recordedConn{Conn: conn, rec: r}
	r.conns = append(r.conns, c)
	return c
}

// Write records p before writing it. The server cannot answer bytes it has
// not yet received, so recording first keeps the order causal: whatever
// the server sends in reply gets a later sequence number. If the write
// fails part way, only the bytes that went out are kept.
func (c *recordedConn) Write(p []byte) (int, error) {
	c.rec.mu.Lock()
	if c.rec.total+len(p) > c.rec.limit {
		c.rec.mu.Unlock()
		return 0, errRecordingFull
	}
	i := len(c.sent)
	c.sent = append(c.sent, c.rec.next(p))
	c.rec.mu.Unlock()

	n, err := c.Conn.Write(p)
	if n < len(p) {
		c.rec.mu.Lock()
		c.sent[i].data = c.sent[i].data[:n]
		c.rec.total -= len(p) - n
		c.rec.mu.Unlock()
	}
	return n, err
}

// Read records what arrived once it has arrived, and before grpc-go sees
// it, so that whatever the client writes in reaction comes later too. It
// reads no more than the recording has room for.
func (c *recordedConn) Read(p []byte) (int, error) {
	c.rec.mu.Lock()
	room := c.rec.limit - c.rec.total
	c.rec.mu.Unlock()
	if room <= 0 {
		return 0, errRecordingFull
	}
	n, err := c.Conn.Read(p[:min(len(p), room)])
	if n > 0 {
		c.rec.mu.Lock()
		c.recv = append(c.recv, c.rec.next(p[:n]))
		c.rec.mu.Unlock()
	}
	return n, err
}

// next copies b into a new chunk with the next sequence number. The caller
// holds r.mu.
func (r *recording) next(b []byte) chunk {
	r.seq++
	r.total += len(b)
	return chunk{seq: r.seq, data: append([]byte(nil), b...)}
}

// connBytes is what one connection carried each way.
type connBytes struct {
	sent, recv []chunk
}

// snapshot returns what every connection has carried so far. It is called
// after the gRPC connection is closed, when nothing records any more; the
// lock makes that safe even for a Read that returns late.
func (r *recording) snapshot() []connBytes {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]connBytes, len(r.conns))
	for i, c := range r.conns {
		out[i] = connBytes{sent: append([]chunk(nil), c.sent...), recv: append([]chunk(nil), c.recv...)}
	}
	return out
}
