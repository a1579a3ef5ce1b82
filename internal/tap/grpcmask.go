package tap

import (
	"errors"
	"math"
	"slices"
	"strings"

	"golang.org/x/net/http2/hpack"
)

// The gRPC relay records frames as they crossed, but for one thing: a
// secret in the metadata (authorization, cookie, x-api-key, ...; the
// same names as secretHeaders) is masked in the record, never in what
// is relayed. Metadata crosses inside header blocks compressed with
// HPACK (RFC 7541), whose dynamic table is shared by every block one
// way on a connection, so the record cannot simply drop a value: the
// later blocks refer to the table by index. Instead each character of
// the secret becomes "*" (after its scheme: "Bearer ******"), written as
// a plain, not Huffman-coded, string literal. The masked value has the
// same length as the secret, so the table keeps its sizes and evicts
// what it evicted, and every later block reads back as it crossed, a
// reference to the secret's entry reading as the mask.

// headerMasker masks the secrets of one direction of a connection. It
// decodes every header block, in order, to know each field's name.
type headerMasker struct {
	dec    *hpack.Decoder
	fields []hpack.HeaderField // the block being decoded
	broken bool                // a block failed to decode: the table is lost, and so are the names
	unread bool                // the latest block was recorded as it crossed, its names unknown
	// pending are a block's frames while it is collected (HEADERS, then
	// CONTINUATION until END_HEADERS): the record gets them together.
	// pendingBytes is their length; overflow is set while the rest of a
	// block longer than maxHeaderBlock passes.
	pending      [][]byte
	pendingBytes int
	overflow     bool
}

// maxHeaderBlock bounds a header block the masker collects: as much as
// the record keeps of one message (DefaultMaxData). Real metadata takes
// a few KiB; a peer that sends CONTINUATION frames without end would
// otherwise grow pending without end.
const maxHeaderBlock = DefaultMaxData

func newHeaderMasker() *headerMasker {
	m := &headerMasker{}
	m.dec = hpack.NewDecoder(4096, func(f hpack.HeaderField) { m.fields = append(m.fields, f) })
	m.dec.SetAllowedMaxDynamicTableSize(math.MaxUint32)
	return m
}

// HTTP/2 frame header flags the masker reads (RFC 9113 section 6.2).
const (
	flagEndHeaders = 0x4
	flagPadded     = 0x8
	flagPriority   = 0x20
)

// frame takes one HEADERS or CONTINUATION frame as it crossed and
// returns the frames to record: none while a block is still being
// collected (ok), then every frame of the block, secrets masked. A block
// it cannot read (HPACK cannot decode it: a peer out of step, which the
// connection does not survive; or it is too long to collect) comes back
// as it crossed, with ok false: it may hold a secret unmasked.
func (m *headerMasker) frame(b []byte) (frames [][]byte, ok bool) {
	if m.overflow {
		// The rest of a block too long to collect passes unread.
		m.overflow = b[4]&flagEndHeaders == 0
		return [][]byte{b}, false
	}
	m.pending = append(m.pending, b)
	m.pendingBytes += len(b)
	if b[4]&flagEndHeaders == 0 && m.pendingBytes <= maxHeaderBlock {
		return nil, true
	}
	frames = m.pending
	m.pending, m.pendingBytes = nil, 0
	if b[4]&flagEndHeaders == 0 {
		// Too long to collect: what came so far, and the rest as it
		// comes, are unread, and the table is lost with the block.
		m.overflow, m.broken, m.unread = true, true, true
		return frames, false
	}
	m.unread = true // until the block is read
	// Cut each frame into the part before its fragment, the fragment,
	// and its padding.
	type part struct{ head, frag, pad []byte }
	parts := make([]part, len(frames))
	var block []byte
	for i, f := range frames {
		p := f[frameHeaderLen:]
		head := f[:frameHeaderLen]
		var pad []byte
		if f[3] == 0x1 { // HEADERS: padding and priority may frame the fragment
			skip, padLen := 0, 0
			if f[4]&flagPadded != 0 && len(p) > 0 {
				padLen, skip = int(p[0]), 1
			}
			if f[4]&flagPriority != 0 {
				skip += 5
			}
			if skip+padLen > len(p) {
				return frames, false // not a frame HTTP/2 allows; the peer will say so
			}
			head, pad, p = f[:frameHeaderLen+skip], p[len(p)-padLen:], p[skip:len(p)-padLen]
		}
		parts[i] = part{head, p, pad}
		block = append(block, p...)
	}
	masked, changed := m.mask(block)
	if m.unread || !changed {
		return frames, !m.unread
	}
	// The masked block is at least as long as the block: the last
	// fragment takes the difference.
	out := make([][]byte, len(frames))
	for i, p := range parts {
		frag := masked[:min(len(p.frag), len(masked))]
		if i == len(parts)-1 {
			frag = masked
		}
		masked = masked[len(frag):]
		f := slices.Concat(p.head, frag, p.pad)
		n := len(f) - frameHeaderLen
		f[0], f[1], f[2] = byte(n>>16), byte(n>>8), byte(n)
		out[i] = f
	}
	return out, true
}

// mask returns the block with each secret value masked, and whether
// there was one.
func (m *headerMasker) mask(block []byte) ([]byte, bool) {
	if m.broken {
		return block, false
	}
	m.fields = m.fields[:0]
	if _, err := m.dec.Write(block); err != nil || m.dec.Close() != nil {
		m.broken = true
		return block, false
	}
	spans, err := literalValues(block)
	if err != nil || len(spans) != len(m.fields) {
		return block, false
	}
	m.unread = false
	var out []byte
	last := 0
	for i, s := range spans {
		f := m.fields[i]
		if s.start < 0 || !isSecret(f.Name) {
			continue // indexed: the table holds it, masked when it was added
		}
		out = append(out, block[last:s.start]...)
		out = appendString(out, maskValue(f.Name, f.Value))
		last = s.end
	}
	if out == nil {
		return block, false
	}
	return append(out, block[last:]...), true
}

func isSecret(name string) bool {
	return slices.ContainsFunc(secretHeaders, func(s string) bool { return strings.EqualFold(s, name) })
}

// maskValue masks a secret character by character, after the scheme of
// an authorization value.
func maskValue(name, v string) string {
	if scheme, rest, ok := strings.Cut(v, " "); ok && strings.HasSuffix(name, "authorization") {
		return scheme + " " + strings.Repeat("*", len(rest))
	}
	return strings.Repeat("*", len(v))
}

// IsMasked reports whether a header value is one the record masked: a
// value, or the part after an authorization's scheme, all "*".
func IsMasked(v string) bool {
	if _, rest, ok := strings.Cut(v, " "); ok {
		v = rest
	}
	return v != "" && strings.Trim(v, "*") == ""
}

// span is where a field's value lies in a header block: the string
// literal, its length prefix included; start is -1 for an indexed
// field, whose value is in the table.
type span struct{ start, end int }

var errBlock = errors.New("not an HPACK header block")

// literalValues walks a header block's representations (RFC 7541
// section 6) and returns, for each field it emits, where its value is.
func literalValues(b []byte) ([]span, error) {
	var spans []span
	for i := 0; i < len(b); {
		c := b[i]
		var prefix uint8
		switch {
		case c&0x80 != 0: // indexed field
			n, err := skipInt(b, i, 7)
			if err != nil {
				return nil, err
			}
			i = n
			spans = append(spans, span{-1, -1})
			continue
		case c&0xc0 == 0x40: // literal with incremental indexing
			prefix = 6
		case c&0xe0 == 0x20: // dynamic table size update: no field
			n, err := skipInt(b, i, 5)
			if err != nil {
				return nil, err
			}
			i = n
			continue
		default: // literal without indexing, or never indexed
			prefix = 4
		}
		index, n, err := readInt(b, i, prefix)
		if err != nil {
			return nil, err
		}
		i = n
		if index == 0 { // the name is a literal too
			if i, err = skipString(b, i); err != nil {
				return nil, err
			}
		}
		start := i
		if i, err = skipString(b, i); err != nil {
			return nil, err
		}
		spans = append(spans, span{start, i})
	}
	return spans, nil
}

// readInt reads an HPACK integer with an n-bit prefix at b[i] (RFC 7541
// section 5.1) and returns it and where it ends.
func readInt(b []byte, i int, n uint8) (uint64, int, error) {
	if i >= len(b) {
		return 0, 0, errBlock
	}
	max := uint64(1)<<n - 1
	v := uint64(b[i]) & max
	i++
	if v < max {
		return v, i, nil
	}
	for shift := uint(0); i < len(b) && shift < 63; shift += 7 {
		c := b[i]
		i++
		v += uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, i, nil
		}
	}
	return 0, 0, errBlock
}

func skipInt(b []byte, i int, n uint8) (int, error) {
	_, end, err := readInt(b, i, n)
	return end, err
}

// skipString returns where the string literal at b[i] ends.
func skipString(b []byte, i int) (int, error) {
	n, end, err := readInt(b, i, 7)
	if err != nil || n > uint64(len(b)-end) {
		return 0, errBlock
	}
	return end + int(n), nil
}

// appendString writes s as a plain string literal: its length with a
// 7-bit prefix and the H bit clear, then its bytes.
func appendString(b []byte, s string) []byte {
	n := uint64(len(s))
	if n < 0x7f {
		b = append(b, byte(n))
	} else {
		b = append(b, 0x7f)
		for n -= 0x7f; n >= 0x80; n >>= 7 {
			b = append(b, byte(n&0x7f)|0x80)
		}
		b = append(b, byte(n))
	}
	return append(b, s...)
}

// HeaderMasker masks the secrets in the header blocks of one direction of
// one HTTP/2 connection, as the gRPC relay masks them in its record, for
// a recording made of frames captured elsewhere (the playground's export
// of its gRPC console). Give it every HEADERS and CONTINUATION frame of
// the direction, whole and in the order they crossed; other frames carry
// no HPACK and pass it by.
//
// HPACK numbers its dynamic table from the newest entry (RFC 7541
// section 2.3.3), so a masker that starts mid-connection knows the
// entries added since, under the numbers the peer used, and fails on a
// reference to an older one: a block it reads, it reads right. A block it
// cannot read may hold a secret it cannot find, and the table is out of
// step after it, so that block and every later one of the direction are
// unreadable (Frame's ok is false): leave them out of the record.
type HeaderMasker struct{ m *headerMasker }

// NewHeaderMasker returns a masker for one direction of one connection.
func NewHeaderMasker() *HeaderMasker { return &HeaderMasker{m: newHeaderMasker()} }

// Frame takes one whole HEADERS or CONTINUATION frame, its 9-byte header
// first, and returns the frames to record: none while a block is still
// being collected (ok is true), then every frame of the block with its
// secrets masked. When the block could not be read, ok is false and
// frames are the block's frames as they crossed, which may hold a
// secret.
func (h *HeaderMasker) Frame(b []byte) (frames [][]byte, ok bool) {
	if len(b) < frameHeaderLen {
		h.Lost()
		return [][]byte{b}, false
	}
	return h.m.frame(b)
}

// Lost tells the masker that a header frame of its direction will not
// be given to it (cut short, say): the table is then out of step, and
// every later block unreadable.
func (h *HeaderMasker) Lost() { h.m.lose() }

// lose gives up on the table: a header frame of the direction was not
// seen whole.
func (m *headerMasker) lose() {
	m.broken, m.unread, m.pending, m.pendingBytes = true, true, nil, 0
}

// IsSecretHeader reports whether a record masks the value of a header,
// or of gRPC metadata, of this name (Authorization, Cookie, ...).
func IsSecretHeader(name string) bool { return isSecret(name) }
