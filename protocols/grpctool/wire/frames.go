package wire

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strings"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// An HTTP/2 connection is two byte streams, one each way. Each is a
// sequence of frames, and each frame starts with the same 9-byte header
// (RFC 9113 section 4.1):
//
//	length (3 bytes) | type (1) | flags (1) | R bit + stream id (4) | payload (length bytes)
//
// The client's stream alone starts with a 24-byte preface before its first
// frame (section 3.4), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n": a line that an
// HTTP/1.1 server rejects at once, so a client that mistakes the server
// for an HTTP/2 one finds out early.

// frameHeaderLen is the length of every frame's header.
const frameHeaderLen = 9

// defaultHeaderTableSize is the HPACK dynamic table size each side starts
// with (RFC 9113 section 6.5.2, SETTINGS_HEADER_TABLE_SIZE).
const defaultHeaderTableSize = 4096

// maxFrameLen is the largest payload a frame header can announce (a
// 24-bit length). The parser reads frames of any size the format allows:
// enforcing the limit the peers agreed on (SETTINGS_MAX_FRAME_SIZE) is
// their job, not an observer's. It never sets aside more memory than was
// recorded, though: a frame whose header announces more is cut short.
const maxFrameLen = 1<<24 - 1

// maxHeaderList bounds one decoded header block, counted as RFC 9113
// section 6.5.2 counts SETTINGS_MAX_HEADER_LIST_SIZE: each field's name
// and value plus 32 bytes. HPACK refers back to what it sent before, so a
// block can decode to far more than its own bytes: one byte repeats a
// table entry that may be kilobytes long, and a few megabytes of those
// would fill gigabytes. 1 MiB is net/http's limit on a request's headers
// (DefaultMaxHeaderBytes); the 32 bytes each field costs also cap a
// block at 32,768 fields. No single name or value may be longer either.
// The fields past the limit are still decoded, since the blocks after
// this one depend on the table it updates, but not kept.
const maxHeaderList = 1 << 20

// sequencedFrame is a frame with the sequence number of the Read or Write
// in which its first byte crossed, which orders it against the frames of
// the other direction.
type sequencedFrame struct {
	seq int
	Frame
}

// readFrames parses the bytes that went one way on one connection, with
// hd, the decoder of that direction's header blocks.
//
// Header blocks are compressed with HPACK, whose dynamic table is shared
// by every header block sent in the same direction on the connection: a
// header sent once can be sent again as a one-byte index. So one decoder
// reads the whole direction, in order, and a block cannot be decoded
// without the blocks before it: a connection kept between calls (Client)
// keeps its decoders too, and a later call's HEADERS, a few bytes of
// table indexes, decode against what earlier calls added. A nil hd is a
// fresh decoder, for bytes that begin a connection.
func readFrames(dir Direction, chunks []chunk, hd *headerDecoder) []sequencedFrame {
	var data []byte
	for _, c := range chunks {
		data = append(data, c.data...)
	}
	// seqAt returns the sequence number of the chunk holding data[off].
	seqAt := func(off int) int {
		for _, c := range chunks {
			if off < len(c.data) {
				return c.seq
			}
			off -= len(c.data)
		}
		return math.MaxInt
	}

	var frames []sequencedFrame
	off := 0
	if dir == ClientToServer && bytes.HasPrefix(data, []byte(http2.ClientPreface)) {
		off = len(http2.ClientPreface)
		frames = append(frames, sequencedFrame{seqAt(0), Frame{
			Dir: dir, Type: "PREFACE", Length: off, Bytes: data[:off],
			Detail: fmt.Sprintf("%q", http2.ClientPreface),
		}})
	}

	r := bytes.NewReader(data[off:])
	fr := http2.NewFramer(io.Discard, r)
	fr.SetMaxReadFrameSize(maxFrameLen)
	if hd == nil {
		hd = newHeaderDecoder()
	}
	var block []byte // the header block being collected from HEADERS and CONTINUATION frames
	blockFrame := -1 // index in frames of the frame that opened it
	for {
		start := len(data) - r.Len()
		if start == len(data) {
			return frames
		}
		// A frame cut short when the connection closed, or bytes that are
		// not HTTP/2: show them as they are and stop.
		unreadable := func(why string) []sequencedFrame {
			return append(frames, sequencedFrame{seqAt(start), Frame{
				Dir: dir, Type: "UNREADABLE", Length: len(data) - start, Bytes: data[start:], Detail: why,
			}})
		}
		if left := len(data) - start; left < frameHeaderLen {
			return unreadable(fmt.Sprintf("cut short: %d bytes, less than a %d-byte frame header", left, frameHeaderLen))
		} else if n := int(data[start])<<16 | int(data[start+1])<<8 | int(data[start+2]); n > left-frameHeaderLen {
			return unreadable(fmt.Sprintf("cut short: the frame header announces %d bytes of payload, but only %d were recorded", n, left-frameHeaderLen))
		}
		f, err := fr.ReadFrame()
		if err != nil {
			return unreadable(err.Error())
		}
		h := f.Header()
		frame := Frame{
			Dir:      dir,
			Type:     h.Type.String(),
			StreamID: h.StreamID,
			Flags:    flagNames(h.Type, h.Flags),
			Length:   int(h.Length),
			Bytes:    data[start : start+frameHeaderLen+int(h.Length)],
			Detail:   detail(f),
		}
		frames = append(frames, sequencedFrame{seqAt(start), frame})

		var fragment []byte
		endHeaders := false
		switch f := f.(type) {
		case *http2.HeadersFrame:
			block, blockFrame = nil, len(frames)-1
			fragment, endHeaders = f.HeaderBlockFragment(), f.HeadersEnded()
		case *http2.PushPromiseFrame:
			block, blockFrame = nil, len(frames)-1
			fragment, endHeaders = f.HeaderBlockFragment(), f.HeadersEnded()
		case *http2.ContinuationFrame:
			fragment, endHeaders = f.HeaderBlockFragment(), f.HeadersEnded()
		default:
			continue
		}
		// The fragment points into the framer's buffer, which the next
		// ReadFrame reuses: append copies it.
		block = append(block, fragment...)
		if endHeaders && blockFrame >= 0 {
			opener := &frames[blockFrame].Frame
			var problem string
			opener.Headers, problem = hd.decode(block)
			if problem != "" {
				opener.Detail = strings.TrimSpace(opener.Detail + " HPACK: " + problem)
			}
			block, blockFrame = nil, -1
		}
	}
}

// headerDecoder decodes the header blocks of one direction, in order,
// within maxHeaderList each.
type headerDecoder struct {
	dec    *hpack.Decoder
	fields []HeaderField // the block being decoded
	size   int           // its size so far, as maxHeaderList counts
	broken error         // the error that left the table out of step, if one did
}

func newHeaderDecoder() *headerDecoder {
	hd := &headerDecoder{}
	hd.dec = hpack.NewDecoder(defaultHeaderTableSize, hd.emit)
	// The encoder announces every change of its table size inside the
	// header block, so the observer follows it rather than enforcing the
	// limit the receiver set. The table holds only strings that arrived,
	// so it never outgrows the recording.
	hd.dec.SetAllowedMaxDynamicTableSize(math.MaxUint32)
	hd.dec.SetMaxStringLength(maxHeaderList)
	return hd
}

// emit keeps a decoded field, until the block passes maxHeaderList.
func (hd *headerDecoder) emit(f hpack.HeaderField) {
	hd.size += int(f.Size())
	if hd.size > maxHeaderList {
		// Decode the rest without keeping it, so that the table stays in
		// step for the next block.
		hd.dec.SetEmitEnabled(false)
		return
	}
	hd.fields = append(hd.fields, HeaderField{f.Name, f.Value})
}

// decode decodes one whole header block. problem, if not "", says why the
// fields are missing or incomplete.
func (hd *headerDecoder) decode(block []byte) (fields []HeaderField, problem string) {
	if hd.broken != nil {
		// Every block is read against the table the blocks before it
		// built, and that table is lost.
		return nil, fmt.Sprintf("not decoded: an earlier block failed (%v), so the table it refers to is unknown", hd.broken)
	}
	hd.fields, hd.size = nil, 0
	hd.dec.SetEmitEnabled(true)
	_, err := hd.dec.Write(block)
	if err == nil {
		err = hd.dec.Close()
	}
	if err != nil {
		hd.broken = err
		return hd.fields, err.Error()
	}
	if hd.size > maxHeaderList {
		return hd.fields, fmt.Sprintf("the header list passes %d bytes (names and values, plus 32 bytes a field); only the first %d fields are kept", maxHeaderList, len(hd.fields))
	}
	return hd.fields, ""
}

// mergeFrames interleaves the two directions of a connection in the order
// their bytes crossed. Each direction is already in that order, its own
// byte order, so the two are merged as two sorted lists are; at the same
// sequence number, which only a test's hand-made chunks share, the
// client's frame goes first.
func mergeFrames(sent, recv []sequencedFrame) []Frame {
	frames := make([]Frame, 0, len(sent)+len(recv))
	for len(sent) > 0 || len(recv) > 0 {
		if len(recv) == 0 || len(sent) > 0 && sent[0].seq <= recv[0].seq {
			frames, sent = append(frames, sent[0].Frame), sent[1:]
		} else {
			frames, recv = append(frames, recv[0].Frame), recv[1:]
		}
	}
	return frames
}

// flagBits are the flags RFC 9113 defines, by frame type. A bit means
// something different in each type: 0x1 is END_STREAM on DATA but ACK on
// SETTINGS.
var flagBits = map[http2.FrameType][]struct {
	bit  http2.Flags
	name string
}{
	http2.FrameData:         {{0x1, "END_STREAM"}, {0x8, "PADDED"}},
	http2.FrameHeaders:      {{0x1, "END_STREAM"}, {0x4, "END_HEADERS"}, {0x8, "PADDED"}, {0x20, "PRIORITY"}},
	http2.FrameSettings:     {{0x1, "ACK"}},
	http2.FramePing:         {{0x1, "ACK"}},
	http2.FrameContinuation: {{0x4, "END_HEADERS"}},
	http2.FramePushPromise:  {{0x4, "END_HEADERS"}, {0x8, "PADDED"}},
}

// flagNames names the flags set in a frame header; a bit the type does
// not define is shown as a number.
func flagNames(t http2.FrameType, flags http2.Flags) []string {
	var names []string
	for _, f := range flagBits[t] {
		if flags.Has(f.bit) {
			names = append(names, f.name)
			flags &^= f.bit
		}
	}
	if flags != 0 {
		names = append(names, fmt.Sprintf("0x%02x", uint8(flags)))
	}
	return names
}

// detail says what a control frame's payload means.
func detail(f http2.Frame) string {
	switch f := f.(type) {
	case *http2.SettingsFrame:
		var s []string
		f.ForeachSetting(func(st http2.Setting) error {
			s = append(s, fmt.Sprintf("%s=%d", st.ID, st.Val))
			return nil
		})
		return strings.Join(s, " ")
	case *http2.WindowUpdateFrame:
		return fmt.Sprintf("increment=%d", f.Increment)
	case *http2.PingFrame:
		return "data=" + hex.EncodeToString(f.Data[:])
	case *http2.RSTStreamFrame:
		return "error=" + f.ErrCode.String()
	case *http2.GoAwayFrame:
		d := fmt.Sprintf("last_stream=%d error=%s", f.LastStreamID, f.ErrCode)
		if debug := f.DebugData(); len(debug) > 0 {
			d += fmt.Sprintf(" debug=%q", debug)
		}
		return d
	case *http2.PriorityFrame:
		return priority(f.PriorityParam)
	case *http2.HeadersFrame:
		if f.HasPriority() {
			return priority(f.Priority)
		}
	case *http2.PushPromiseFrame:
		return fmt.Sprintf("promised_stream=%d", f.PromiseID)
	}
	return ""
}

func priority(p http2.PriorityParam) string {
	d := fmt.Sprintf("depends_on=%d weight=%d", p.StreamDep, int(p.Weight)+1)
	if p.Exclusive {
		d += " exclusive"
	}
	return d
}
