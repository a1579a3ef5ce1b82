package tap

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/net/http2"
)

// GRPC is a tapped gRPC server: a relay of HTTP/2 connections that
// passes every byte both ways unchanged and records every frame. The
// host speaks HTTP/2 in plaintext (h2c, with prior knowledge, as gRPC
// clients do) to the tap; the tap speaks to the upstream in plaintext
// too, or over TLS when GRPCOptions.TLS is set. HTTP/2's frames are the
// same bytes either way, so the relay does not decode or re-encode
// anything: it only cuts each direction into frames to record them.
//
// A frame is recorded (kind h2-frame, the whole frame with its 9-byte
// header as base64) before the chunk that completes it is passed on, so
// that the record orders an answer after what it answers. Each host
// connection has a number (conn); the frames of one connection, read back
// in order with protocols/grpctool/wire.ReadConnection, give its calls.
type GRPC struct {
	upstream string
	tls      *tls.Config
	rec      *Recorder
	next     atomic.Int64 // the last connection number given out
	// described is 0 until the upstream's descriptors are asked for,
	// 1 while they are, 2 once they are recorded (or it said why not);
	// -1 when the relay does not ask.
	described atomic.Int32
}

// GRPCOptions configure a GRPC relay; nil means the defaults.
type GRPCOptions struct {
	// TLS, if set, secures the connection to the upstream (with the
	// server's CA in RootCAs). NextProtos is set to "h2", which TLS
	// servers of gRPC require.
	TLS *tls.Config
	// NoDescriptors: do not ask the upstream for its descriptors by
	// reflection (see KindDescriptors).
	NoDescriptors bool
}

// dialTimeout bounds the connection to the upstream: a host's gRPC
// client waits on its own deadline, and the tap should say that the
// upstream is down well before most of those.
const dialTimeout = 10 * time.Second

// NewGRPC returns a relay to the gRPC server at upstream ("host:port"),
// recording into rec.
func NewGRPC(upstream string, rec *Recorder, opts *GRPCOptions) (*GRPC, error) {
	if _, _, err := net.SplitHostPort(upstream); err != nil {
		return nil, fmt.Errorf("upstream %q is not host:port", upstream)
	}
	g := &GRPC{upstream: upstream, rec: rec}
	if opts != nil && opts.TLS != nil {
		g.tls = opts.TLS.Clone()
		g.tls.NextProtos = []string{"h2"}
	}
	if opts != nil && opts.NoDescriptors {
		g.described.Store(-1)
	}
	return g, nil
}

// Upstream names the tapped server: grpc://host:port, or grpcs:// when
// the tap reaches it over TLS.
func (g *GRPC) Upstream() string {
	if g.tls != nil {
		return "grpcs://" + g.upstream
	}
	return "grpc://" + g.upstream
}

// Serve relays each connection accepted on ln until ctx ends, then
// closes ln and every connection and returns once their relays have
// stopped.
func (g *GRPC) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	// Closing the listener is what ends Accept; this goroutine ends with
	// ctx, which the deferred cancel ends at the latest.
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	// The descriptors are asked for at once, and again when a host
	// connects if the upstream could not be reached before.
	askDescriptors := func() {
		if !g.described.CompareAndSwap(0, 1) {
			return
		}
		wg.Add(1)
		// Ends within describeTimeout, or sooner with ctx.
		go func() {
			defer wg.Done()
			if g.describe(ctx) {
				g.described.Store(2)
			} else {
				g.described.Store(0)
			}
		}()
	}
	askDescriptors()
	for {
		host, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("accepting: %w", err)
		}
		askDescriptors()
		wg.Add(1)
		// Ends when both directions of the connection have ended; ctx's
		// end closes them.
		go func() {
			defer wg.Done()
			g.relay(ctx, host)
		}()
	}
}

// relay passes one host connection to a new upstream connection.
func (g *GRPC) relay(ctx context.Context, host net.Conn) {
	n := int(g.next.Add(1))
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	up, err := g.dial(dctx)
	cancel()
	if err != nil {
		g.rec.Add(Event{Kind: KindNote, Dir: In, Conn: n, Data: fmt.Sprintf("the upstream %s did not answer: %v", g.upstream, err)})
		host.Close()
		return
	}
	// Either direction failing, or ctx ending, closes both connections,
	// which ends the other direction's read.
	var closeOnce sync.Once
	closeBoth := func() {
		closeOnce.Do(func() {
			host.Close()
			up.Close()
		})
	}
	stop := context.AfterFunc(ctx, closeBoth)
	defer stop()
	defer closeBoth()

	var wg sync.WaitGroup
	wg.Add(2)
	// Each ends when its source ends or the connections are closed.
	out, in := &frames{rec: g.rec, conn: n, dir: Out, preface: true}, &frames{rec: g.rec, conn: n, dir: In}
	if !g.rec.opts.KeepSecrets {
		out.mask, in.mask = newHeaderMasker(), newHeaderMasker()
	}
	go func() {
		defer wg.Done()
		g.pipe(up, host, out, closeBoth)
	}()
	go func() {
		defer wg.Done()
		g.pipe(host, up, in, closeBoth)
	}()
	wg.Wait()
}

func (g *GRPC) dial(ctx context.Context) (net.Conn, error) {
	if g.tls == nil {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", g.upstream)
	}
	cfg := g.tls
	if cfg.ServerName == "" {
		cfg = cfg.Clone()
		cfg.ServerName, _, _ = net.SplitHostPort(g.upstream)
	}
	d := tls.Dialer{Config: cfg}
	return d.DialContext(ctx, "tcp", g.upstream)
}

// pipe copies src to dst, recording frames as they complete. At src's
// end it half-closes dst, so that the other side sees the end too and
// the other direction can finish; on a failure it closes both.
func (g *GRPC) pipe(dst, src net.Conn, f *frames, closeBoth func()) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			f.take(buf[:n])
			if _, werr := dst.Write(buf[:n]); werr != nil {
				if errors.Is(werr, net.ErrClosed) {
					// The other direction closed both when its side
					// ended: the last frames of this one (a PING's
					// ACK, say) had no one left to read them.
					f.end("")
				} else {
					f.end(fmt.Sprintf("writing to the %s: %v", f.destination(), werr))
				}
				closeBoth()
				return
			}
		}
		if errors.Is(err, io.EOF) {
			f.end("")
			if cw, ok := dst.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
				return
			}
			closeBoth()
			return
		}
		if err != nil {
			switch {
			case errors.Is(err, net.ErrClosed), f.goaway && errors.Is(err, syscall.ECONNRESET):
				// Closed by the other direction; or a reset from a side
				// that had said GOAWAY and closed while the other side's
				// last frames were on their way: its kernel answers those
				// with a reset. Neither is a break.
				f.end("")
			default:
				f.end(fmt.Sprintf("reading from the %s: %v", f.source(), err))
			}
			closeBoth()
			return
		}
	}
}

// frames cuts one direction of a connection into HTTP/2 frames
// (RFC 9113 section 4.1: a 9-byte header whose first 3 bytes are the
// payload's length) and records each. It is used by one goroutine.
type frames struct {
	rec     *Recorder
	conn    int
	dir     string
	preface bool // the bytes begin with the client's 24-byte preface

	buf    []byte // the frame being collected, bounded by the record's MaxData
	need   int    // its whole length once its header is in buf; 0 before
	skip   int    // bytes of a frame too long to keep that are still to pass
	size   int    // that frame's real length
	raw    bool   // not HTTP/2: the rest is passed on unrecorded
	goaway bool   // this side has sent GOAWAY: it is closing the connection
	done   bool   // end was called
	// mask masks secrets in header blocks before they are recorded;
	// nil when the record keeps secrets. withheld is set once a block
	// it could not read has been left out.
	mask     *headerMasker
	withheld bool
}

func (f *frames) take(p []byte) {
	for len(p) > 0 && !f.raw {
		if f.skip > 0 && len(f.buf) == f.need {
			n := min(f.skip, len(p))
			f.skip -= n
			p = p[n:]
			if f.skip == 0 {
				f.record(f.size)
			}
			continue
		}
		want := frameHeaderLen
		if f.preface {
			want = len(http2.ClientPreface)
		} else if f.need > 0 {
			want = f.need
		}
		n := min(want-len(f.buf), len(p))
		f.buf = append(f.buf, p[:n]...)
		p = p[n:]
		if len(f.buf) < want {
			return
		}
		switch {
		case f.preface:
			f.preface = false
			if string(f.buf) != http2.ClientPreface {
				f.raw = true
				f.rec.Add(Event{Kind: KindNote, Dir: f.dir, Conn: f.conn, Data: fmt.Sprintf("not HTTP/2: the host's first bytes are %q, not the connection preface; the rest passes unrecorded", f.buf)})
				return
			}
			f.record(len(f.buf))
		case f.need == 0:
			f.need = frameHeaderLen + (int(f.buf[0])<<16 | int(f.buf[1])<<8 | int(f.buf[2]))
			if f.need > f.rec.opts.MaxData {
				// Keep the head, let the rest pass unkept.
				f.size, f.skip = f.need, f.need-frameHeaderLen
				f.need = f.rec.opts.MaxData
				f.skip -= f.need - frameHeaderLen
			}
			if len(f.buf) == f.need && f.skip == 0 {
				f.record(f.need)
			}
		default:
			if f.skip == 0 {
				f.record(f.need)
			}
		}
	}
}

// frameHeaderLen is the length of every HTTP/2 frame's header.
const frameHeaderLen = 9

// record records the frame in buf, whose real length is size; a
// header block's frames go through the masker first (grpcmask.go), and
// are recorded, masked, once the block is whole. A block the masker
// cannot read, and so cannot mask, is left out (withhold).
func (f *frames) record(size int) {
	isBlock := len(f.buf) >= frameHeaderLen && !f.preface && (http2.FrameType(f.buf[3]) == http2.FrameHeaders || http2.FrameType(f.buf[3]) == http2.FrameContinuation)
	switch {
	case f.mask == nil || !isBlock:
		f.add(f.buf, size)
	case size != len(f.buf):
		// Too long to keep whole (MaxData), so the masker never sees
		// all of it: the table is lost with it.
		f.mask.lose()
		f.withhold(fmt.Sprintf("a header frame of %d bytes, longer than the record keeps", size))
	default:
		frames, ok := f.mask.frame(bytes.Clone(f.buf))
		if !ok {
			f.withhold("HPACK could not read them")
			break
		}
		for _, b := range frames {
			f.add(b, len(b))
		}
	}
	f.buf, f.need, f.size = nil, 0, 0
}

// withhold leaves a header frame out of the record, saying why the first
// time: a block the masker could not read may hold a secret it could not
// find, and every later block of the direction is unreadable too, its
// table out of step.
func (f *frames) withhold(why string) {
	if f.withheld {
		return
	}
	f.withheld = true
	f.rec.Add(Event{Kind: KindNote, Dir: f.dir, Conn: f.conn, Data: fmt.Sprintf("from here on, the header blocks the %s sends on this connection are left out of the record (%s): they might hold a secret unmasked; --keep-secrets records them as they cross", f.source(), why)})
}

// add records one frame, b, whose real length is size.
func (f *frames) add(b []byte, size int) {
	e := Event{Kind: KindFrame, Dir: f.dir, Conn: f.conn, Size: size, Truncated: size > len(b)}
	e.setBinary(b)
	if len(b) == len(http2.ClientPreface) && string(b) == http2.ClientPreface {
		e.Frame = "PREFACE"
	} else if len(b) >= frameHeaderLen {
		e.Frame = http2.FrameType(b[3]).String()
		f.goaway = f.goaway || http2.FrameType(b[3]) == http2.FrameGoAway
		e.Stream = uint32(b[5]&0x7f)<<24 | uint32(b[6])<<16 | uint32(b[7])<<8 | uint32(b[8])
	}
	f.rec.Add(e)
}

// end records what is left of a frame cut off by the end of the
// connection, and why it ended, if it broke.
func (f *frames) end(broke string) {
	if f.done {
		return
	}
	f.done = true
	if f.mask != nil && len(f.mask.pending) > 0 {
		f.rec.Add(Event{Kind: KindNote, Dir: f.dir, Conn: f.conn, Data: fmt.Sprintf("a header block cut off by the connection's end (%d frames) is not recorded: it may hold secrets", len(f.mask.pending))})
	}
	if len(f.buf) > 0 && !f.raw {
		e := Event{Kind: KindFrame, Dir: f.dir, Conn: f.conn, Size: len(f.buf), NoEOL: true}
		e.setBinary(f.buf)
		f.rec.Add(e)
	}
	if broke != "" {
		f.rec.Add(Event{Kind: KindNote, Dir: f.dir, Conn: f.conn, Data: broke})
	}
}

func (f *frames) source() string {
	if f.dir == Out {
		return "host"
	}
	return "upstream"
}

func (f *frames) destination() string {
	if f.dir == Out {
		return "upstream"
	}
	return "host"
}
