package tapcheck

import (
	"slices"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/protocols/grpctool/wire"
)

// Call is one gRPC call found in a recording of the gRPC relay.
type Call struct {
	// Event is the Seq of the HEADERS frame that opened the call.
	Event     int    `json:"event"`
	Conn      int    `json:"conn"`
	Stream    uint32 `json:"stream"`
	Method    string `json:"method"`
	Status    string `json:"status"`
	Requests  int    `json:"requests"`
	Responses int    `json:"responses"`
}

// Connection is one recorded gRPC connection read back: its frames and
// calls, as package wire reads them, and the event that holds each frame.
type Connection struct {
	Conn int
	*wire.Connection
	// Events are the Seq of each of Frames, or 0 where the frames and
	// the recorded events do not line up (a frame cut at the record's
	// bound).
	Events []int
}

// Connections reads every gRPC connection of a recording back into frames
// and calls, in the order the connections opened. files describes the
// methods for decoding messages; nil decodes them by field number alone.
func Connections(events []tap.Event, files *protoregistry.Files) []Connection {
	var order []int
	byConn := map[int][]tap.Event{}
	for _, e := range events {
		if e.Kind != tap.KindFrame {
			continue
		}
		if _, ok := byConn[e.Conn]; !ok {
			order = append(order, e.Conn)
		}
		byConn[e.Conn] = append(byConn[e.Conn], e)
	}
	var conns []Connection
	for _, n := range order {
		frames := byConn[n]
		chunks := make([]wire.Chunk, len(frames))
		for i, e := range frames {
			chunks[i] = wire.Chunk{Dir: direction(e.Dir), Data: e.Bytes()}
		}
		c := Connection{Conn: n, Connection: wire.ReadConnection(chunks, files)}
		// When every event holds one whole frame, the k-th frame one way
		// is the k-th event that way.
		seqs := map[wire.Direction][]int{}
		for _, e := range frames {
			seqs[direction(e.Dir)] = append(seqs[direction(e.Dir)], e.Seq)
		}
		next := map[wire.Direction]int{}
		for _, f := range c.Frames {
			seq := 0
			if i := next[f.Dir]; i < len(seqs[f.Dir]) {
				seq = seqs[f.Dir][i]
			}
			next[f.Dir]++
			c.Events = append(c.Events, seq)
		}
		conns = append(conns, c)
	}
	return conns
}

func direction(dir string) wire.Direction {
	if dir == tap.Out {
		return wire.ClientToServer
	}
	return wire.ServerToClient
}

// grpcCalls lists the calls of a recording's gRPC connections and checks
// how each ended.
func (c *checker) grpcCalls(events []tap.Event) {
	for _, conn := range Connections(events, nil) {
		for _, call := range conn.Calls {
			event := 0
			for i, f := range conn.Frames {
				if f.Dir == wire.ClientToServer && f.StreamID == call.StreamID && f.Type == "HEADERS" {
					event = conn.Events[i]
					break
				}
			}
			c.report.Calls = append(c.report.Calls, Call{Event: event, Conn: conn.Conn, Stream: call.StreamID, Method: call.Method,
				Status: call.Code.String(), Requests: len(call.Requests), Responses: len(call.Responses)})
			if call.Trailers == nil && call.Code == codes.Unknown {
				c.find("grpc-no-status", event, "%s on connection %d, stream %d", "%s в соединении %d, поток %d", call.Method, conn.Conn, call.StreamID)
			}
			if call.Trailers != nil && !slices.ContainsFunc(call.Trailers, func(h wire.HeaderField) bool { return h.Name == "grpc-status" }) {
				c.find("grpc-status-missing", event, "%s on connection %d, stream %d", "%s в соединении %d, поток %d", call.Method, conn.Conn, call.StreamID)
			}
		}
	}
}
