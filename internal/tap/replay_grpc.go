package tap

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/wirelab/wirelab/protocols/grpctool/wire"
)

// GRPCReplayOptions configure ReplayGRPC; nil means the defaults.
type GRPCReplayOptions struct {
	// Wait bounds each call; 0 means DefaultWait.
	Wait time.Duration
	// Token is sent as "authorization: Bearer TOKEN" where the recording
	// has a masked authorization; without it a masked value is left out.
	Token string
	// Creds secure the connection to the server (TLS); nil is plaintext.
	Creds credentials.TransportCredentials
}

// recordedCall is one gRPC call of a recording.
type recordedCall struct {
	seq  int // the event of the HEADERS frame that opened it
	conn int
	*wire.Exchange
}

// name names the call in a Difference.
func (c recordedCall) name() string {
	return fmt.Sprintf("call %s (connection %d, stream %d): ", c.Method, c.conn, c.StreamID)
}

// recordedCalls reads every gRPC call of a recording out of its frames,
// in the order the calls opened.
func recordedCalls(events []Event) []recordedCall {
	var order []int
	byConn := map[int][]Event{}
	for _, e := range events {
		if e.Kind != KindFrame {
			continue
		}
		if _, ok := byConn[e.Conn]; !ok {
			order = append(order, e.Conn)
		}
		byConn[e.Conn] = append(byConn[e.Conn], e)
	}
	var calls []recordedCall
	for _, n := range order {
		frames := byConn[n]
		chunks := make([]wire.Chunk, len(frames))
		seqs := map[wire.Direction][]int{}
		for i, e := range frames {
			dir := wire.ServerToClient
			if e.Dir == Out {
				dir = wire.ClientToServer
			}
			chunks[i] = wire.Chunk{Dir: dir, Data: e.Bytes()}
			seqs[dir] = append(seqs[dir], e.Seq)
		}
		conn := wire.ReadConnection(chunks, nil)
		// Each event holds one whole frame, so the k-th frame one way is
		// the k-th event that way.
		opened := map[uint32]int{}
		next := map[wire.Direction]int{}
		for _, f := range conn.Frames {
			i := next[f.Dir]
			next[f.Dir]++
			if _, ok := opened[f.StreamID]; !ok && f.Dir == wire.ClientToServer && f.Type == "HEADERS" && i < len(seqs[f.Dir]) {
				opened[f.StreamID] = seqs[f.Dir][i]
			}
		}
		for _, ex := range conn.Calls {
			calls = append(calls, recordedCall{seq: opened[ex.StreamID], conn: n, Exchange: ex})
		}
	}
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].seq < calls[j].seq })
	return calls
}

// replayedCall is what the fresh server answered to one call.
type replayedCall struct {
	code      codes.Code
	message   string
	trailer   metadata.MD
	responses [][]byte
}

// ReplayGRPC makes each call of a recording of the gRPC relay again,
// one after another in the order they opened, against the server at
// target (host:port): the same method, the same request messages byte
// for byte, the same metadata but for what HTTP/2 and gRPC set for
// themselves. It compares each call's status, trailers and response
// messages with the recorded ones. Messages are compared field by
// field, by name when the recording holds descriptors (or the server
// answers reflection), with timestamps and other values that change
// from run to run made placeholders.
func ReplayGRPC(ctx context.Context, events []Event, target string, opts *GRPCReplayOptions) ([]Difference, error) {
	if opts == nil {
		opts = &GRPCReplayOptions{}
	}
	wait := opts.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	creds := opts.Creds
	if creds == nil {
		creds = insecure.NewCredentials()
	}
	calls := recordedCalls(events)
	if len(calls) == 0 {
		return nil, errors.New("the recording holds no gRPC call")
	}
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", target, err)
	}
	defer conn.Close()
	files := Descriptors(events)
	if files == nil {
		files = reflectCalls(ctx, target, creds, calls)
	}
	var diffs []Difference
	for _, c := range calls {
		if slices.ContainsFunc(c.Requests, func(m wire.Message) bool { return m.Compressed }) {
			diffs = append(diffs, Difference{Event: c.seq, What: c.name() + "not replayed: its requests are compressed"})
			continue
		}
		got, err := replayCall(ctx, conn, c, wait, opts.Token)
		if err != nil {
			diffs = append(diffs, Difference{Event: c.seq, What: c.name() + "no answer: " + err.Error()})
			continue
		}
		diffs = append(diffs, compareCall(c, got, files)...)
	}
	return diffs, nil
}

// reflectCalls asks the server for the descriptors of the services the
// calls use; nil when it will not say, and messages are then compared
// by field number.
func reflectCalls(ctx context.Context, target string, creds credentials.TransportCredentials, calls []recordedCall) *protoregistry.Files {
	ctx, cancel := context.WithTimeout(ctx, describeTimeout)
	defer cancel()
	var files *protoregistry.Files
	asked := map[string]bool{}
	for _, c := range calls {
		service, _, _ := strings.Cut(strings.TrimPrefix(c.Method, "/"), "/")
		if asked[service] {
			continue
		}
		asked[service] = true
		if f, err := wire.Reflect(ctx, target, service, creds); err == nil {
			files = mergeFiles(files, f)
		}
	}
	return files
}

// rawCodec passes messages through as the bytes they are: the replay
// sends the recorded Protobuf bytes unchanged and keeps the answers'.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *v.(*[]byte), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*v.(*[]byte) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// replayCall makes one call again. A failure to make it at all is an
// error; every status the server answers with is a result.
func replayCall(ctx context.Context, conn *grpc.ClientConn, c recordedCall, wait time.Duration, token string) (replayedCall, error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	ctx = metadata.NewOutgoingContext(ctx, callMetadata(c.RequestHeaders, token))
	stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}, c.Method, grpc.ForceCodec(rawCodec{}))
	if err != nil {
		if s, ok := status.FromError(err); ok && s.Code() != codes.Unavailable {
			return replayedCall{code: s.Code(), message: s.Message()}, nil
		}
		return replayedCall{}, err
	}
	for _, m := range c.Requests {
		payload := m.Payload
		// io.EOF: the server has ended the call; RecvMsg says how.
		if err := stream.SendMsg(&payload); err != nil {
			break
		}
	}
	stream.CloseSend()
	var got replayedCall
	for {
		var b []byte
		err := stream.RecvMsg(&b)
		if err == nil {
			got.responses = append(got.responses, b)
			continue
		}
		if !errors.Is(err, io.EOF) {
			s := status.Convert(err)
			got.code, got.message = s.Code(), s.Message()
		}
		break
	}
	got.trailer = stream.Trailer()
	return got, nil
}

// notMetadata are request headers that are not the call's metadata:
// HTTP/2's own and hop-by-hop headers, and those gRPC sets for each call
// (its deadline is the replay's, its encodings the client's).
var notMetadata = []string{"content-type", "user-agent", "te", "grpc-timeout", "grpc-encoding", "grpc-accept-encoding",
	"grpc-message-type", "host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"}

// callMetadata is the metadata to send again: the recorded request
// headers but for notMetadata; a masked secret is left out, or, for
// authorization, sent as "Bearer token" when there is a token.
func callMetadata(headers []wire.HeaderField, token string) metadata.MD {
	md := metadata.MD{}
	for _, h := range headers {
		if strings.HasPrefix(h.Name, ":") || slices.Contains(notMetadata, h.Name) {
			continue
		}
		if isSecret(h.Name) && IsMasked(h.Value) {
			if h.Name == "authorization" && token != "" {
				md.Append(h.Name, "Bearer "+token)
			}
			continue
		}
		v := h.Value
		if strings.HasSuffix(h.Name, "-bin") {
			// Binary metadata crosses as base64; grpc-go encodes it again.
			b, err := decodeBin(v)
			if err != nil {
				continue
			}
			v = string(b)
		}
		md.Append(h.Name, v)
	}
	return md
}

// decodeBin reads a binary header's value: base64, padded or not
// (gRPC's PROTOCOL-HTTP2.md lets a sender do either).
func decodeBin(v string) ([]byte, error) {
	if b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "=")); err == nil {
		return b, nil
	}
	return base64.StdEncoding.DecodeString(v)
}

// compareCall reports how the replayed call differs from the recorded.
func compareCall(c recordedCall, got replayedCall, files *protoregistry.Files) []Difference {
	var diffs []Difference
	wantStatus := fmt.Sprintf("grpc-status %d %s", uint32(c.Code), c.Code)
	gotStatus := fmt.Sprintf("grpc-status %d %s", uint32(got.code), got.code)
	if c.StatusMessage != "" {
		wantStatus += "\ngrpc-message " + c.StatusMessage
	}
	if got.message != "" {
		gotStatus += "\ngrpc-message " + got.message
	}
	if d := DiffLines(wantStatus, gotStatus); d != "" {
		diffs = append(diffs, Difference{Event: c.seq, What: c.name() + "status differs", Diff: d})
	}
	if d := DiffLines(recordedTrailers(c.Trailers), replayedTrailers(got.trailer)); d != "" {
		diffs = append(diffs, Difference{Event: c.seq, What: c.name() + "trailers differ", Diff: d})
	}
	var output protoreflect.MessageDescriptor
	if md := methodDescriptor(files, c.Method); md != nil {
		output = md.Output()
	}
	for i := 0; i < max(len(c.Responses), len(got.responses)); i++ {
		what := fmt.Sprintf("%sresponse %d", c.name(), i+1)
		switch {
		case i >= len(got.responses):
			diffs = append(diffs, Difference{Event: c.seq, What: what + ": missing from the replay", Diff: DiffLines(renderMessage(c.Responses[i].Payload, output), "")})
		case i >= len(c.Responses):
			diffs = append(diffs, Difference{What: what + ": only in the replay", Diff: DiffLines("", renderMessage(got.responses[i], output))})
		default:
			if c.Responses[i].Compressed {
				continue // the recorded bytes are compressed, the replayed ones not: nothing to compare field by field
			}
			if d := DiffLines(renderMessage(c.Responses[i].Payload, output), renderMessage(got.responses[i], output)); d != "" {
				diffs = append(diffs, Difference{Event: c.seq, What: what + ": differs", Diff: d})
			}
		}
	}
	return diffs
}

// statusTrailers are the trailers compareCall reads as the status, or
// that a trailers-only answer carries as HTTP's own.
var statusTrailers = []string{"grpc-status", "grpc-message", ":status", "content-type"}

func recordedTrailers(fields []wire.HeaderField) string {
	var lines []string
	for _, h := range fields {
		if slices.Contains(statusTrailers, h.Name) {
			continue
		}
		v := h.Value
		if strings.HasSuffix(h.Name, "-bin") {
			if b, err := decodeBin(v); err == nil {
				v = base64.RawStdEncoding.EncodeToString(b)
			}
		}
		lines = append(lines, h.Name+": "+normalizeText(v))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func replayedTrailers(md metadata.MD) string {
	var lines []string
	for name, vs := range md {
		if slices.Contains(statusTrailers, name) {
			continue
		}
		for _, v := range vs {
			if strings.HasSuffix(name, "-bin") {
				v = base64.RawStdEncoding.EncodeToString([]byte(v))
			}
			lines = append(lines, name+": "+normalizeText(v))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// methodDescriptor finds a method ("/pkg.Service/Method") in files.
func methodDescriptor(files *protoregistry.Files, method string) protoreflect.MethodDescriptor {
	if files == nil {
		return nil
	}
	service, name, ok := strings.Cut(strings.TrimPrefix(method, "/"), "/")
	if !ok {
		return nil
	}
	d, err := files.FindDescriptorByName(protoreflect.FullName(service))
	if err != nil {
		return nil
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil
	}
	return sd.Methods().ByName(protoreflect.Name(name))
}

// maxRenderDepth bounds how deep renderMessage follows nested messages.
const maxRenderDepth = 16

// renderMessage writes a Protobuf message one field a line, for a diff:
// "field 1 result = ...", with the field's name when md knows it. A
// bytes or string field that holds JSON is written as normalised JSON
// (see normalize), so that a timestamp inside a tool's result does not
// count as a difference; a nested message, when md says a field is one,
// follows indented.
func renderMessage(b []byte, md protoreflect.MessageDescriptor) string {
	var out strings.Builder
	renderFields(&out, b, md, "", 0)
	return strings.TrimSuffix(out.String(), "\n")
}

func renderFields(out *strings.Builder, b []byte, md protoreflect.MessageDescriptor, indent string, depth int) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			fmt.Fprintf(out, "%s! not a field: %s\n", indent, hex.EncodeToString(b))
			return
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			fmt.Fprintf(out, "%s! field %d cut short: %s\n", indent, num, hex.EncodeToString(b))
			return
		}
		value := b[n : n+m]
		b = b[n+m:]
		var fd protoreflect.FieldDescriptor
		label := fmt.Sprintf("field %d", num)
		if md != nil {
			if fd = md.Fields().ByNumber(num); fd != nil {
				label += " " + string(fd.Name())
			}
		}
		switch typ {
		case protowire.VarintType:
			v, _ := protowire.ConsumeVarint(value)
			text := strconv.FormatUint(v, 10)
			if fd != nil && fd.Kind() == protoreflect.EnumKind {
				if ev := fd.Enum().Values().ByNumber(protoreflect.EnumNumber(v)); ev != nil {
					text = string(ev.Name())
				}
			}
			fmt.Fprintf(out, "%s%s = %s\n", indent, label, text)
		case protowire.Fixed32Type, protowire.Fixed64Type:
			fmt.Fprintf(out, "%s%s = 0x%s\n", indent, label, hex.EncodeToString(value))
		case protowire.BytesType:
			v, _ := protowire.ConsumeBytes(value)
			if fd != nil && fd.Kind() == protoreflect.MessageKind && depth < maxRenderDepth {
				fmt.Fprintf(out, "%s%s {\n", indent, label)
				renderFields(out, v, fd.Message(), indent+"  ", depth+1)
				fmt.Fprintf(out, "%s}\n", indent)
				continue
			}
			fmt.Fprintf(out, "%s%s = %s\n", indent, label, strings.ReplaceAll(renderBytes(v), "\n", "\n"+indent))
		default:
			fmt.Fprintf(out, "%s%s (group) = %s\n", indent, label, hex.EncodeToString(value))
		}
	}
}

// renderBytes writes a bytes or string value: normalised JSON when it is
// JSON, quoted text when it is text, hex otherwise.
func renderBytes(v []byte) string {
	if json.Valid(v) && len(v) > 0 && (v[0] == '{' || v[0] == '[') {
		return normalize(v)
	}
	if utf8.Valid(v) {
		return strconv.Quote(normalizeText(string(v)))
	}
	return hex.EncodeToString(v)
}

// normalizeText makes a timestamp a placeholder, as normalize does
// inside JSON.
func normalizeText(s string) string {
	if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return placeholderTime
	}
	return s
}
