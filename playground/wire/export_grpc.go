package wire

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"time"

	"golang.org/x/net/http2/hpack"

	"github.com/wirelab/wirelab/internal/tap"
)

// A gRPC console's session, exported. Each "grpc" event carries the
// HTTP/2 frames that crossed since the previous call on the tab's kept
// connection (grpcwire.Client): the first call's begin with the client's
// preface, a later call's continue the same connection, and a call made
// while another was under way has a connection of its own, opened and
// closed with it. So frames are numbered by connection as the tap numbers
// them: a preface opens connection n+1; frames without one continue the
// kept connection. The console's notes of a reconnect and of a call that
// could not be made are notes of the recording.
//
// Metadata travels in HPACK header blocks, and HPACK's dynamic table is
// shared by every block one way on a connection: a later call's
// authorization is often a one-byte reference to the table. Each
// direction of each connection therefore has its own tap.HeaderMasker,
// given the blocks in the order they crossed, so that the secret is
// masked where it was sent and every reference to it reads as the mask.
//
// The session keeps its latest replayEvents (500) events. When they
// begin in the middle of a connection, the masker starts with an empty
// table: it reads the blocks that refer only to entries added since, and
// cannot read a block that refers to an older one. Such a block, and
// every later block of its direction on that connection (the table is
// out of step after it), is left out of the export with a note: it may
// hold a secret the masker cannot find. The frames around it (DATA,
// SETTINGS, ...) are exported; a replay does not know the call whose
// HEADERS are missing. As a last guard, a block that still holds, as
// typed or Huffman-coded, a secret value the session sent in a call's
// metadata is left out too.

// grpcConnExport is one connection of the export.
type grpcConnExport struct {
	n       int
	masks   map[string]*tap.HeaderMasker // by direction
	dropped map[string]bool              // a direction whose blocks are being left out, noted once
}

func newGRPCConnExport(n int) *grpcConnExport {
	return &grpcConnExport{n: n, masks: map[string]*tap.HeaderMasker{tap.Out: tap.NewHeaderMasker(), tap.In: tap.NewHeaderMasker()}, dropped: map[string]bool{}}
}

// grpc exports a gRPC target's calls, in the order of the session's
// events.
func (x *exporter) grpc(evs []Event, target, to, upstream string) error {
	mine := func(ev Event) bool { return ev.Op == "event" && ev.Target == target && ev.To == to }
	// Every secret value the session sent, for the last guard.
	var secrets [][]byte
	for _, ev := range evs {
		if !mine(ev) || ev.Kind != "grpc-call" {
			continue
		}
		call, err := parseGRPCFrame(ev.Text)
		if err != nil {
			continue
		}
		for name, values := range call.md {
			for _, v := range values {
				if tap.IsSecretHeader(name) && v != "" {
					secrets = append(secrets, []byte(v), hpack.AppendHuffmanString(nil, v))
				}
			}
		}
	}
	var (
		started bool
		conns   int
		kept    *grpcConnExport    // the tab's kept connection, which frames without a preface continue
		open    = map[int64]bool{} // calls sent and not yet answered
		ownConn = map[int64]bool{} // calls sent while another was under way
	)
	for _, ev := range evs {
		if ev.Op == "error" && open[ev.ID] {
			delete(open, ev.ID)
			x.add(tap.Event{T: at(ev), Kind: tap.KindNote, Data: "a call could not be made: " + ev.Message})
			continue
		}
		if !mine(ev) {
			continue
		}
		t := at(ev)
		switch ev.Kind {
		case "grpc-call":
			if !started {
				x.start(evs, tap.Event{Upstream: upstream})
				started = true
			}
			if len(open) > 0 {
				ownConn[ev.ID] = true
			}
			open[ev.ID] = true
		case "restart":
			// A note in a recording is something that broke (the check
			// reports each): the console's reconnect is one; its note of
			// how a connection is secured is not, and the start event's
			// grpcs:// says TLS.
			x.add(tap.Event{T: t, Kind: tap.KindNote, Data: ev.Text})
			kept = nil
		case "grpc":
			delete(open, ev.ID)
			c := kept
			switch {
			case len(ev.Frames) > 0 && ev.Frames[0].Type == "PREFACE":
				conns++
				c = newGRPCConnExport(conns)
				if !ownConn[ev.ID] {
					kept = c
				}
			case c == nil:
				conns++
				c = newGRPCConnExport(conns)
				kept = c
				x.add(tap.Event{T: t, Kind: tap.KindNote, Conn: c.n, Data: "the session's kept events begin in the middle of this connection: its first frames are not in the export"})
			}
			for _, f := range ev.Frames {
				x.grpcFrame(c, t, f, secrets)
			}
		}
	}
	if !started {
		return fmt.Errorf("%w: the session has made no call to %s", ErrNothingToExport, target)
	}
	return nil
}

// grpcFrame exports one frame of connection c, a header block's through
// the direction's masker.
func (x *exporter) grpcFrame(c *grpcConnExport, t time.Time, f HTTP2Frame, secrets [][]byte) {
	if f.Type != "HEADERS" && f.Type != "CONTINUATION" {
		x.add(frameEvent(c, t, f.Dir, f.Type, f.Stream, f.Bytes, f.Cut))
		return
	}
	m := c.masks[f.Dir]
	var frames [][]byte
	ok := f.Cut == 0
	if ok {
		frames, ok = m.Frame(f.Bytes)
	} else {
		m.Lost()
	}
	if ok && holdsAny(frames, secrets) {
		m.Lost()
		ok = false
	}
	if !ok {
		if !c.dropped[f.Dir] {
			c.dropped[f.Dir] = true
			who := "the server"
			if f.Dir == tap.Out {
				who = "the playground's client"
			}
			x.add(tap.Event{T: t, Kind: tap.KindNote, Dir: f.Dir, Conn: c.n, Data: fmt.Sprintf(
				"from here on, the header blocks %s sent on connection %d are left out: HPACK could not read them, so they might hold a secret unmasked (the session's kept events begin in the middle of the connection, or a frame was cut short)", who, c.n)})
		}
		return
	}
	for _, b := range frames {
		typ := "CONTINUATION"
		if b[3] == 0x1 {
			typ = "HEADERS"
		}
		x.add(frameEvent(c, t, f.Dir, typ, f.Stream, b, 0))
	}
}

// frameEvent is one frame as the tap records it: the whole frame, its
// header first, as base64; cut bytes of it left out.
func frameEvent(c *grpcConnExport, t time.Time, dir, typ string, stream uint32, b []byte, cut int) tap.Event {
	return tap.Event{T: t, Kind: tap.KindFrame, Dir: dir, Conn: c.n, Frame: typ, Stream: stream,
		Base64: base64.StdEncoding.EncodeToString(b), Size: len(b) + cut, Truncated: cut > 0}
}

// holdsAny reports whether any of the frames holds one of the values.
func holdsAny(frames [][]byte, values [][]byte) bool {
	for _, b := range frames {
		for _, v := range values {
			if bytes.Contains(b, v) {
				return true
			}
		}
	}
	return false
}
