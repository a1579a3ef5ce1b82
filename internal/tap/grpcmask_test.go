package tap

import (
	"bytes"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// headersFrame wraps a header block in one HEADERS frame of stream 1
// with END_HEADERS.
func headersFrame(block []byte) []byte {
	n := len(block)
	return append([]byte{byte(n >> 16), byte(n >> 8), byte(n), 0x1, flagEndHeaders, 0, 0, 0, 1}, block...)
}

// hpackEncoder returns a function that encodes header blocks one after
// another, as one direction of a connection does: its dynamic table
// remembers what earlier blocks added.
func hpackEncoder() func(fields ...hpack.HeaderField) []byte {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	return func(fields ...hpack.HeaderField) []byte {
		buf.Reset()
		for _, f := range fields {
			enc.WriteField(f)
		}
		return bytes.Clone(buf.Bytes())
	}
}

// TestHeaderMasker: a masker that sees a connection's blocks from the
// first masks the secret where it is sent and reads the later block that
// refers to it; one that starts at the later block cannot read it, and
// says so, and every block after it is unreadable too.
func TestHeaderMasker(t *testing.T) {
	encode := hpackEncoder()
	block := func(fields ...hpack.HeaderField) []byte { return headersFrame(encode(fields...)) }
	auth := hpack.HeaderField{Name: "authorization", Value: "Bearer secret"}
	path := hpack.HeaderField{Name: ":path", Value: "/tools.v1.ToolServer/ExecuteTool"}
	first := block(path, auth)
	second := block(path, auth) // both by index now
	plain := block(hpack.HeaderField{Name: ":method", Value: "POST"})

	m := NewHeaderMasker()
	for i, b := range [][]byte{first, second, plain} {
		frames, ok := m.Frame(b)
		if !ok || len(frames) != 1 {
			t.Fatalf("block %d: ok %v, %d frames", i+1, ok, len(frames))
		}
		if bytes.Contains(frames[0], []byte("secret")) || bytes.Contains(frames[0], hpack.AppendHuffmanString(nil, "Bearer secret")) {
			t.Errorf("block %d holds the secret: %q", i+1, frames[0])
		}
	}

	late := NewHeaderMasker()
	if frames, ok := late.Frame(second); ok {
		t.Errorf("a block that refers to an entry added before the masker started read as %q", frames)
	}
	if _, ok := late.Frame(plain); ok {
		t.Error("a block after an unreadable one read, with the table out of step")
	}

	// A block cut across a CONTINUATION is held until its end.
	split := NewHeaderMasker()
	head := bytes.Clone(first[:frameHeaderLen+3])
	head[0], head[1], head[2], head[4] = 0, 0, 3, 0
	rest := append([]byte{0, 0, byte(len(first) - frameHeaderLen - 3), 0x9, flagEndHeaders, 0, 0, 0, 1}, first[frameHeaderLen+3:]...)
	if frames, ok := split.Frame(head); frames != nil || !ok {
		t.Errorf("the first frame of a block: %q, %v; want nothing yet", frames, ok)
	}
	frames, ok := split.Frame(rest)
	if !ok || len(frames) != 2 || bytes.Contains(bytes.Join(frames, nil), []byte("secret")) {
		t.Errorf("a block in two frames: ok %v, %q", ok, frames)
	}
	split.Lost()
	if _, ok := split.Frame(plain); ok {
		t.Error("a block read after a lost one")
	}
}

// TestHeaderMaskerEndlessBlock: a header block that goes on past
// maxHeaderBlock, CONTINUATION after CONTINUATION, is not collected
// without end: the masker gives up on it, hands back what it held, and
// lets the rest pass as it comes, unread, and the blocks after it too.
func TestHeaderMaskerEndlessBlock(t *testing.T) {
	frame := func(typ, flags byte, n int) []byte {
		return append([]byte{byte(n >> 16), byte(n >> 8), byte(n), typ, flags, 0, 0, 0, 1}, make([]byte, n)...)
	}
	const part = 64 << 10
	m := NewHeaderMasker()
	if frames, ok := m.Frame(frame(0x1, 0, part)); frames != nil || !ok {
		t.Fatalf("the first frame: %d frames, ok %v; want it held", len(frames), ok)
	}
	held := 1
	for {
		frames, ok := m.Frame(frame(0x9, 0, part))
		if frames == nil {
			held++
			if held*part > 2*maxHeaderBlock {
				t.Fatalf("the masker holds %d frames, %d bytes, of one block", held, held*part)
			}
			continue
		}
		if ok || len(frames) != held+1 {
			t.Fatalf("giving up: %d frames back, ok %v; want the %d held and this one, not ok", len(frames), ok, held+1)
		}
		break
	}
	if len(m.m.pending) != 0 {
		t.Errorf("%d frames still held", len(m.m.pending))
	}
	if frames, ok := m.Frame(frame(0x9, 0, part)); len(frames) != 1 || ok {
		t.Errorf("the block goes on: %d frames, ok %v; want it passed at once, unread", len(frames), ok)
	}
	if frames, ok := m.Frame(frame(0x9, flagEndHeaders, part)); len(frames) != 1 || ok {
		t.Errorf("the block's end: %d frames, ok %v", len(frames), ok)
	}
	if frames, ok := m.Frame(headersFrame([]byte{0x82})); len(frames) != 1 || ok {
		t.Errorf("a block after it: %d frames, ok %v; want it unread, the table lost", len(frames), ok)
	}
}
