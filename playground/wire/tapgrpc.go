package wire

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/wirelab/wirelab/internal/tap"
	grpcwire "github.com/wirelab/wirelab/protocols/grpctool/wire"
)

// A gRPC tap records HTTP/2 frames (kind h2-frame), which the console
// shows as it shows its own calls: when the host opens a call, a
// "grpc-call" event with the call as one would type it (the method, the
// metadata, then each request message as JSON once it has come); while
// the server answers, and again when the call ends, a "grpc" event with
// every frame of the call both ways and their annotated account, as
// package grpctool/wire writes it. All of a call's events share an id,
// and a later one stands for the same row, updated:
//
//	{"op":"event","id":1,"target":"custom-grpc","to":"127.0.0.1:8020","dir":"out","kind":"grpc-call","text":"tools.v1.ToolServer/ExecuteTool\n...","seq":7}
//	{"op":"event","id":1,"target":"custom-grpc","to":"127.0.0.1:8020","dir":"in","kind":"grpc","text":"call /tools.v1.ToolServer/ExecuteTool on stream 1: OK (0)\n...","frames":[...],"seq":14}
//
// The connection's own frames (stream 0: the preface, SETTINGS, PING,
// WINDOW_UPDATE) go with the next call whose answer is shown. Messages
// are decoded with the descriptors the tap recorded (grpc-descriptors),
// by field number until those come.

// Limits of a gRPC tap's translation. A call is read back from the
// connection's frames each time it is shown, header frames of the
// calls before it included, since HPACK's table is the connection's.
const (
	// maxLiveCalls bounds the calls of one connection shown, so that
	// reading a call back stays cheap; a note says where they stop.
	maxLiveCalls = 1000
	// maxCallUpdates bounds how often a call's answer is shown before
	// it ends: a long stream of messages shows the first ones as they
	// come, the rest with the call's end.
	maxCallUpdates = 32
)

// grpcView follows the gRPC connections of one tap.
type grpcView struct {
	files *protoregistry.Files // the tap's descriptors, nil until they come
	conns map[int]*grpcConn
	order []int // the connections, in the order their first frame came
	calls int64 // the id of the last call shown
}

// grpcConn is one connection of the host's, as far as its calls still
// need it.
type grpcConn struct {
	n      int
	opened time.Time
	// frames are what reading a call back needs, in recorded order:
	// every header frame (HPACK's table), the frames of the calls still
	// open, and the connection's own frames not yet shown.
	frames  []tap.Event
	streams map[uint32]*grpcStream
	shown   int  // the calls shown so far
	full    bool // past maxLiveCalls: its calls are no longer shown
}

// grpcStream is a call in progress.
type grpcStream struct {
	id      int64
	earlier int  // calls the connection carried before it
	updates int  // answers shown before its end
	ignored bool // a stream that is not a call (no :path)
}

// HTTP/2 frame flags this translation reads (RFC 9113 section 6).
const (
	flagEndStream = 0x1
)

// grpcEvents translates one event of a gRPC tap: a frame, or the
// descriptors.
func (tr *translator) grpcEvents(e tap.Event, ev Event) []Event {
	if tr.grpc.conns == nil {
		tr.grpc.conns = map[int]*grpcConn{}
	}
	if e.Kind == tap.KindDescriptors {
		files, err := tap.DescriptorsOf(e)
		ev.Dir, ev.Kind = "note", "note"
		if err != nil {
			ev.Text = "the tap's descriptors cannot be read (" + err.Error() + "): messages show by field number"
			return []Event{ev}
		}
		if tr.grpc.files == nil {
			tr.grpc.files = new(protoregistry.Files)
		}
		files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
			if _, err := tr.grpc.files.FindFileByPath(fd.Path()); err != nil {
				tr.grpc.files.RegisterFile(fd)
			}
			return true
		})
		ev.Text = "the tap asked the server for its descriptors by reflection: messages show field names from here on (" +
			strings.ReplaceAll(e.Data, "\n", ", ") + ")"
		return []Event{ev}
	}
	c := tr.grpc.conns[e.Conn]
	if c == nil {
		c = &grpcConn{n: e.Conn, opened: e.T, streams: map[uint32]*grpcStream{}}
		tr.grpc.conns[e.Conn] = c
		tr.grpc.order = append(tr.grpc.order, e.Conn)
	}
	if c.full {
		return nil
	}
	c.frames = append(c.frames, e)
	b := e.Bytes()
	if e.Stream == 0 || len(b) < 9 {
		return nil // the connection's own: shown with the next call
	}
	flags := b[4]
	st := c.streams[e.Stream]
	if st == nil {
		if e.Dir != tap.Out || e.Frame != "HEADERS" {
			return nil
		}
		if c.shown == maxLiveCalls {
			c.full, c.frames = true, nil
			ev.Dir, ev.Kind = "note", "note"
			ev.Text = fmt.Sprintf("connection %d has carried %d calls: its later ones are not shown here; wirelab tap check FILE --wire reads them all", c.n, maxLiveCalls)
			return []Event{ev}
		}
		st = &grpcStream{earlier: c.shown}
		c.streams[e.Stream] = st
		ex := c.read(e.Stream, tr.grpc.files)
		if ex == nil {
			st.ignored = true
			return nil
		}
		c.shown++
		tr.grpc.calls++
		st.id = tr.grpc.calls
		return []Event{callEvent(ev, st, ex)}
	}
	if st.ignored {
		if e.Frame == "RST_STREAM" || (e.Dir == tap.In && flags&flagEndStream != 0) {
			c.forget(e.Stream)
		}
		return nil
	}
	ended := e.Frame == "RST_STREAM" || (e.Dir == tap.In && flags&flagEndStream != 0)
	switch {
	case ended:
		ex := c.read(e.Stream, tr.grpc.files)
		c.forget(e.Stream)
		if ex == nil {
			return nil
		}
		// The answer first: the row it makes is the one that shows the
		// frame that ended the call.
		return []Event{answerEvent(ev, st, ex, c.opened, true), callEvent(ev, st, ex)}
	case e.Dir == tap.Out && flags&flagEndStream != 0:
		// The host has sent all it will: the call's row gets its
		// messages.
		if ex := c.read(e.Stream, tr.grpc.files); ex != nil {
			return []Event{callEvent(ev, st, ex)}
		}
	case e.Dir == tap.In && st.updates < maxCallUpdates:
		st.updates++
		if ex := c.read(e.Stream, tr.grpc.files); ex != nil {
			return []Event{answerEvent(ev, st, ex, c.opened, false)}
		}
	}
	return nil
}

// grpcEnd shows the calls still open when the tap ended, as the wire
// left them: without a status.
func (tr *translator) grpcEnd(at time.Time) []Event {
	var out []Event
	for _, n := range tr.grpc.order {
		c := tr.grpc.conns[n]
		if c.full {
			continue
		}
		for _, stream := range c.openStreams() {
			st := c.streams[stream]
			if st.ignored {
				continue
			}
			if ex := c.read(stream, tr.grpc.files); ex != nil {
				ev := Event{Op: "event", Target: tr.target, To: tr.to, At: at.UTC().Format(time.RFC3339Nano)}
				out = append(out, answerEvent(ev, st, ex, c.opened, true))
			}
		}
	}
	return out
}

// openStreams lists the calls still open, in the order they opened.
func (c *grpcConn) openStreams() []uint32 {
	var out []uint32
	seen := map[uint32]bool{}
	for _, e := range c.frames {
		if st := c.streams[e.Stream]; st != nil && !seen[e.Stream] {
			seen[e.Stream] = true
			out = append(out, e.Stream)
		}
	}
	return out
}

// read reads the call on stream back from the frames kept. Its Frames
// are its own and the connection's not yet shown, in the order they
// crossed. Nil when the stream is not a call.
func (c *grpcConn) read(stream uint32, files *protoregistry.Files) *grpcwire.Exchange {
	var chunks []grpcwire.Chunk
	hidden := false // the last chunk holds header frames of other calls only
	for _, e := range c.frames {
		dir := grpcwire.ServerToClient
		if e.Dir == tap.Out {
			dir = grpcwire.ClientToServer
		}
		shown := e.Stream == stream || e.Stream == 0
		// Other calls' header frames are read for HPACK's sake alone:
		// those in a row one way join one chunk, which keeps the
		// reading cheap.
		if !shown && hidden && chunks[len(chunks)-1].Dir == dir {
			last := &chunks[len(chunks)-1]
			last.Data = append(last.Data, e.Bytes()...)
			continue
		}
		data := e.Bytes()
		if !shown {
			data = bytes.Clone(data)
		}
		chunks = append(chunks, grpcwire.Chunk{Dir: dir, Data: data})
		hidden = !shown
	}
	conn := grpcwire.ReadConnection(chunks, files)
	for _, ex := range conn.Calls {
		if ex.StreamID != stream {
			continue
		}
		ex.Frames = ex.Frames[:0]
		for _, f := range conn.Frames {
			if f.StreamID == stream || f.StreamID == 0 {
				ex.Frames = append(ex.Frames, f)
			}
		}
		return ex
	}
	return nil
}

// forget drops an ended call's frames, and the connection's own frames,
// which its answer showed; header frames stay for HPACK's table.
func (c *grpcConn) forget(stream uint32) {
	delete(c.streams, stream)
	kept := c.frames[:0]
	for _, e := range c.frames {
		if e.Stream != 0 && (c.streams[e.Stream] != nil || isHeaderFrame(e.Frame)) {
			kept = append(kept, e)
		}
	}
	clear(c.frames[len(kept):])
	c.frames = kept
}

func isHeaderFrame(t string) bool {
	return t == "HEADERS" || t == "CONTINUATION" || t == "PUSH_PROMISE"
}

// callEvent is the call as the host made it, in the words of the
// console's gRPC frame: the method, the metadata as it crossed, a blank
// line, and each request message as JSON (or field by field, by number,
// without descriptors). Its size is what the host has sent on the
// call's stream so far.
func callEvent(ev Event, st *grpcStream, ex *grpcwire.Exchange) Event {
	var b strings.Builder
	b.WriteString(strings.TrimPrefix(ex.Method, "/") + "\n")
	for _, h := range ex.RequestHeaders {
		if !strings.HasPrefix(h.Name, ":") {
			b.WriteString(h.Name + ": " + h.Value + "\n")
		}
	}
	for i, m := range ex.Requests {
		if i == 0 {
			b.WriteString("\n")
		}
		b.WriteString(messageText(m) + "\n")
	}
	size := 0
	for _, f := range ex.Frames {
		if f.Dir == grpcwire.ClientToServer && f.StreamID == ex.StreamID {
			size += len(f.Bytes)
		}
	}
	ev.ID, ev.Dir, ev.Kind, ev.Text, ev.Size = st.id, "out", "grpc-call", strings.TrimSuffix(b.String(), "\n"), size
	return ev
}

// messageText is a message as the call's row shows it: JSON through
// the descriptor, or each field by number.
func messageText(m grpcwire.Message) string {
	if m.JSON != nil {
		return string(m.JSON)
	}
	var lines []string
	for _, f := range m.Fields {
		lines = append(lines, fmt.Sprintf("field %d (%s) = %s", f.Number, f.WireType, f.Value))
	}
	if len(lines) == 0 {
		return fmt.Sprintf("(%d bytes, not decoded)", len(m.Payload))
	}
	return strings.Join(lines, "\n")
}

// answerEvent is the call as the wire shows it so far: every frame,
// and the account of them. Before the call's end (final false) its
// first line says it is in progress rather than naming a status the
// wire has not carried yet.
func answerEvent(ev Event, st *grpcStream, ex *grpcwire.Exchange, opened time.Time, final bool) Event {
	ex.EarlierCalls, ex.Opened = st.earlier, opened
	var text bytes.Buffer
	ex.Format(&text)
	s := text.String()
	if !final {
		_, rest, _ := strings.Cut(s, "\n")
		s = fmt.Sprintf("call %s on stream %d: in progress, no status yet\n%s", ex.Method, ex.StreamID, rest)
	}
	frames, in := http2Frames(ex.Frames)
	ev.ID, ev.Dir, ev.Kind, ev.Text, ev.Size, ev.Frames = st.id, "in", "grpc", s, in, frames
	return ev
}
