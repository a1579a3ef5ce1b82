package wire

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"
)

// NATSBus is a Bus on a NATS server, which several playgrounds share: a
// presenter on one reaches the followers on all of them. It uses core
// NATS only (publish, subscribe), so any NATS server will do, with no
// stream to set up: the history a late hub needs is asked of the
// presenter's hub, which has it (see receiver).
//
// A NATS server takes messages of at most its max_payload (1 MiB
// unless configured), and an event may be larger (a frame of 1 MiB,
// quoted). A larger message goes in parts, each with headers that say
// which message it belongs to and where it stands; a subscriber puts
// them together. NATS keeps the order of one connection's messages, and
// a message's parts go out together, so a subscriber assembles one
// message per publisher at a time.
type NATSBus struct {
	conn *nats.Conn
	id   string // this connection's name among publishers, for the parts

	mu   sync.Mutex // guards next, and keeps a message's parts together
	next uint64
}

// Headers of a message sent in parts.
const (
	headerMessage = "Wirelab-Message" // "<publisher>.<number>"
	headerPart    = "Wirelab-Part"    // "<i>/<n>", from 1
)

// maxParts bounds the parts of one message a subscriber assembles: 64
// of the default 1 MiB payload hold the largest event and then some.
const maxParts = 64

// NewNATSBus connects to the NATS server at url ("nats://host:4222"), and
// keeps reconnecting if it goes away: what is lost meanwhile, the
// receivers notice and ask for again.
func NewNATSBus(url string) (*NATSBus, error) {
	conn, err := nats.Connect(url, nats.Name("wirelab playground"), nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("connecting to NATS at %s: %w", url, err)
	}
	b := make([]byte, 8)
	rand.Read(b) // crypto/rand.Read never fails
	return &NATSBus{conn: conn, id: hex.EncodeToString(b)}, nil
}

// Report says on w when the connection to the NATS server is lost and
// when it is back: meanwhile what is presented here reaches no other
// playground's followers, and nothing else would tell the instructor.
func (b *NATSBus) Report(w io.Writer) {
	url := b.conn.ConnectedUrlRedacted()
	b.conn.SetDisconnectErrHandler(func(c *nats.Conn, err error) {
		if c.IsClosed() || c.IsDraining() {
			return // Close: this playground is stopping
		}
		why := ""
		if err != nil {
			why = " (" + err.Error() + ")"
		}
		fmt.Fprintf(w, "wirelab: lost the NATS server at %s%s: until it is back, the followers on other playgrounds hear nothing from this one; trying again\n", url, why)
	})
	b.conn.SetReconnectHandler(func(c *nats.Conn) {
		fmt.Fprintf(w, "wirelab: the NATS server at %s is back\n", c.ConnectedUrlRedacted())
	})
}

// Close sends what is buffered and closes the connection.
func (b *NATSBus) Close() {
	b.conn.Drain()
}

// Publish sends msg on subject, in parts if the server's max_payload is
// smaller.
func (b *NATSBus) Publish(subject string, msg []byte) error {
	limit := int(b.conn.MaxPayload()) - 512 // room for the parts' headers
	if len(msg) <= limit || limit <= 0 {
		return b.conn.Publish(subject, msg)
	}
	n := (len(msg) + limit - 1) / limit
	if n > maxParts {
		return fmt.Errorf("a message of %d bytes is more than %d parts of the server's max_payload", len(msg), maxParts)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	id := b.id + "." + strconv.FormatUint(b.next, 10)
	for i := range n {
		part := nats.NewMsg(subject)
		part.Header.Set(headerMessage, id)
		part.Header.Set(headerPart, fmt.Sprintf("%d/%d", i+1, n))
		part.Data = msg[i*limit : min(len(msg), (i+1)*limit)]
		if err := b.conn.PublishMsg(part); err != nil {
			return err
		}
	}
	return nil
}

// Subscribe calls handle with every whole message on subject, on the
// subscription's own goroutine, one at a time.
func (b *NATSBus) Subscribe(subject string, handle func([]byte)) (func(), error) {
	// partial holds the message each publisher is sending in parts. Only
	// the subscription's goroutine uses it.
	partial := make(map[string]*assembly)
	sub, err := b.conn.Subscribe(subject, func(m *nats.Msg) {
		id := m.Header.Get(headerMessage)
		if id == "" {
			handle(m.Data)
			return
		}
		if whole, ok := assemble(partial, id, m.Header.Get(headerPart), m.Data); ok {
			handle(whole)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("subscribing to %s: %w", subject, err)
	}
	return func() { sub.Unsubscribe() }, nil
}

// assembly is a message arriving in parts.
type assembly struct {
	id   string
	have int // parts so far
	data []byte
}

// assemble adds part "i/n" of message id to partial, keyed by its
// publisher, and returns the whole message with its last part. A part
// out of place (one was lost) drops the message: its receiver notices
// the gap.
func assemble(partial map[string]*assembly, id, part string, data []byte) ([]byte, bool) {
	publisher, _, _ := strings.Cut(id, ".")
	is, ns, _ := strings.Cut(part, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil || i < 1 || i > n || n > maxParts {
		return nil, false
	}
	a := partial[publisher]
	if i == 1 {
		a = &assembly{id: id}
		partial[publisher] = a
	}
	if a == nil || a.id != id || a.have != i-1 {
		delete(partial, publisher)
		return nil, false
	}
	a.have++
	a.data = append(a.data, data...)
	if a.have < n {
		return nil, false
	}
	delete(partial, publisher)
	return a.data, true
}
