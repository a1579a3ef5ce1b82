package wire

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"golang.org/x/net/http2"
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
// streaming without end. A connection kept between calls counts only the
// bytes not yet taken by a capture.
const maxRecorded = 8 << 20

// errRecordingFull ends a connection that has carried maxRecorded bytes;
// grpc-go then fails the call with UNAVAILABLE and this message.
var errRecordingFull = fmt.Errorf("the capture is full (%d MiB); the connection was closed", maxRecorded>>20)

// recording holds the bytes of every connection a ClientConn opens: usually
// exactly one, which carries one call or, kept by a Client, many calls one
// after another.
type recording struct {
	mu    sync.Mutex // guards seq, total, conns, and every field of every conn but hpack
	seq   int        // numbers chunks in the order they were recorded, across connections and directions
	total int        // bytes recorded and not yet taken
	limit int        // maxRecorded, except in tests
	conns []*recordedConn
}

// chunk is the bytes of one Read or Write.
type chunk struct {
	seq  int
	data []byte
}

// recordedConn is a connection whose every Read and Write is kept until a
// capture takes it.
type recordedConn struct {
	net.Conn
	rec    *recording
	opened time.Time
	sent   []chunk // client to server, not yet taken
	recv   []chunk // server to client, not yet taken
	// started is true once bytes sent have been taken: only the first
	// take begins with the client's preface.
	started bool
	// ended is true once the connection is closed or a read has failed:
	// no more bytes will come, so a frame cut short stays short.
	ended bool
	calls int // captures that found their call on this connection

	// sentHeaders and recvHeaders follow the header compression of each
	// direction from the connection's first byte (readFrames); only the
	// capture that holds the Client's lock uses them.
	sentHeaders, recvHeaders *headerDecoder
}

func (r *recording) wrap(conn net.Conn) net.Conn {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := &recordedConn{Conn: conn, rec: r, opened: time.Now(), sentHeaders: newHeaderDecoder(), recvHeaders: newHeaderDecoder()}
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
	c.sent = append(c.sent, c.rec.next(p))
	seq := c.rec.seq
	c.rec.mu.Unlock()

	n, err := c.Conn.Write(p)
	if n < len(p) {
		c.rec.mu.Lock()
		// A take may have moved the chunk since: find it by its number.
		for i := range c.sent {
			if c.sent[i].seq == seq {
				c.sent[i].data = c.sent[i].data[:n]
				c.rec.total -= len(p) - n
			}
		}
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
	c.rec.mu.Lock()
	if n > 0 {
		c.recv = append(c.recv, c.rec.next(p[:n]))
	}
	if err != nil {
		c.ended = true
	}
	c.rec.mu.Unlock()
	return n, err
}

// Close marks the connection ended, so that the next take keeps whatever
// is left, whole frames or not.
func (c *recordedConn) Close() error {
	c.rec.mu.Lock()
	c.ended = true
	c.rec.mu.Unlock()
	return c.Conn.Close()
}

// next copies b into a new chunk with the next sequence number. The caller
// holds r.mu.
func (r *recording) next(b []byte) chunk {
	r.seq++
	r.total += len(b)
	return chunk{seq: r.seq, data: append([]byte(nil), b...)}
}

// connBytes is what one connection carried each way since the last take.
type connBytes struct {
	conn       *recordedConn
	sent, recv []chunk
}

// take returns what every connection has carried since the last take and
// forgets it; a connection that has ended and been taken whole is
// forgotten too. From a connection still open it takes whole frames only:
// a frame still arriving belongs to the next capture, and its first bytes
// alone would read as garbage.
func (r *recording) take() []connBytes {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]connBytes, 0, len(r.conns))
	open := r.conns[:0]
	for _, c := range r.conns {
		b := connBytes{conn: c}
		b.sent, c.sent = cut(c.sent, c.ended, !c.started)
		b.recv, c.recv = cut(c.recv, c.ended, false)
		c.started = c.started || len(b.sent) > 0
		for _, ch := range b.sent {
			r.total -= len(ch.data)
		}
		for _, ch := range b.recv {
			r.total -= len(ch.data)
		}
		out = append(out, b)
		if !c.ended || len(c.sent)+len(c.recv) > 0 {
			open = append(open, c)
		}
	}
	clear(r.conns[len(open):])
	r.conns = open
	return out
}

// cut splits chunks after the last whole frame (after all of them when
// all is true): the first part is taken, the rest waits. preface says the
// bytes start with the client's connection preface.
func cut(chunks []chunk, all, preface bool) (taken, rest []chunk) {
	if all {
		return chunks, nil
	}
	var data []byte
	for _, c := range chunks {
		data = append(data, c.data...)
	}
	n := wholeFrames(data, preface)
	for i, c := range chunks {
		if n >= len(c.data) {
			n -= len(c.data)
			continue
		}
		if n == 0 {
			return chunks[:i], slices.Clone(chunks[i:])
		}
		// The frame boundary falls inside this chunk: both halves keep
		// its sequence number, the order in which its bytes crossed.
		taken = append(slices.Clone(chunks[:i]), chunk{c.seq, c.data[:n]})
		rest = append([]chunk{{c.seq, c.data[n:]}}, chunks[i+1:]...)
		return taken, rest
	}
	return chunks, nil
}

// wholeFrames returns the length of the longest run of whole frames at
// the start of data, after the preface if there is one. Each frame says
// its length in its first 3 bytes (RFC 9113 section 4.1).
func wholeFrames(data []byte, preface bool) int {
	n := 0
	if preface {
		if len(data) < len(http2.ClientPreface) {
			return 0
		}
		n = len(http2.ClientPreface)
	}
	for len(data)-n >= frameHeaderLen {
		size := frameHeaderLen + (int(data[n])<<16 | int(data[n+1])<<8 | int(data[n+2]))
		if len(data)-n < size {
			break
		}
		n += size
	}
	return n
}
