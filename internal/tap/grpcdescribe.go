package tap

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/wirelab/wirelab/protocols/grpctool/wire"
)

// KindDescriptors is an event of the gRPC relay: the descriptors of the
// services the upstream offers, which the tap asked for by server
// reflection on a connection of its own (not the host's, and not
// recorded as frames). Base64 holds them as a serialized
// google.protobuf.FileDescriptorSet; Data names the services, one per
// line. A page or a replay reads a recording's messages field by field
// with them, by name, even when the server is long gone.
//
//	{"seq":2,"t":"...","kind":"grpc-descriptors","data":"tools.v1.ToolServer\ngrpc.health.v1.Health","base64":"CrQBChV0b29scy92MS..."}
const KindDescriptors = "grpc-descriptors"

// describeTimeout bounds asking the upstream for its descriptors: the
// relay goes on meanwhile, and messages show by field number until they
// come.
const describeTimeout = 5 * time.Second

// describe asks the upstream for the descriptors of every service it
// offers and records them, or a note saying why there are none. It
// reports false when the upstream could not be reached, so that the
// relay may ask again when a host connects.
func (g *GRPC) describe(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, describeTimeout)
	defer cancel()
	creds := insecure.NewCredentials()
	if g.tls != nil {
		creds = credentials.NewTLS(g.tls)
	}
	set, services, err := describeServer(ctx, g.upstream, creds)
	switch {
	case status.Code(err) == codes.Unavailable || errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return false
	case err != nil:
		g.rec.Add(Event{Kind: KindNote, Data: fmt.Sprintf("no descriptors from %s (%v): messages show by field number", g.upstream, err)})
		return true
	}
	b, err := proto.Marshal(set)
	if err != nil || len(b) > g.rec.opts.MaxData {
		g.rec.Add(Event{Kind: KindNote, Data: fmt.Sprintf("the descriptors of %s are too large to record: messages show by field number", g.upstream)})
		return true
	}
	g.rec.Add(Event{Kind: KindDescriptors, Data: strings.Join(services, "\n"), Base64: base64.StdEncoding.EncodeToString(b)})
	return true
}

// describeServer lists the services of the server at target by
// reflection and returns the files that describe them, and what they
// import, as one set.
func describeServer(ctx context.Context, target string, creds credentials.TransportCredentials) (*descriptorpb.FileDescriptorSet, []string, error) {
	services, err := listServices(ctx, target, creds)
	if err != nil {
		return nil, nil, err
	}
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var described []string
	for _, s := range services {
		if strings.HasPrefix(s, "grpc.reflection.") {
			continue // the tap's own question, not the host's business
		}
		files, err := wire.Reflect(ctx, target, s, creds)
		if err != nil {
			return nil, nil, err
		}
		described = append(described, s)
		files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
			if !seen[fd.Path()] {
				seen[fd.Path()] = true
				set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
			}
			return true
		})
	}
	return set, described, nil
}

// listServices asks the server at target which services it offers
// (grpc.reflection.v1, list_services).
func listServices(ctx context.Context, target string, creds credentials.TransportCredentials) ([]string, error) {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the stream however this returns
	stream, err := rpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		return nil, err
	}
	if err := stream.Send(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{ListServices: "*"}}); err != nil {
		return nil, err
	}
	resp, err := stream.Recv()
	if err != nil {
		if status.Code(err) == codes.Unimplemented {
			return nil, errors.New("the server offers no reflection (grpc.reflection.v1)")
		}
		return nil, err
	}
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	slices.Sort(names)
	return names, nil
}

// Descriptors returns the descriptors a recording of the gRPC relay
// holds (its grpc-descriptors events), or nil when it holds none.
func Descriptors(events []Event) *protoregistry.Files {
	var files *protoregistry.Files
	for _, e := range events {
		if e.Kind != KindDescriptors {
			continue
		}
		if f, err := DescriptorsOf(e); err == nil {
			files = mergeFiles(files, f)
		}
	}
	return files
}

// DescriptorsOf reads the descriptors of one grpc-descriptors event.
func DescriptorsOf(e Event) (*protoregistry.Files, error) {
	b, err := base64.StdEncoding.DecodeString(e.Base64)
	if err != nil {
		return nil, fmt.Errorf("event %d: %w", e.Seq, err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(b, set); err != nil {
		return nil, fmt.Errorf("event %d: %w", e.Seq, err)
	}
	return protodesc.NewFiles(set)
}

// mergeFiles adds the files of b that a lacks to a (a new registry when
// a is nil).
func mergeFiles(a, b *protoregistry.Files) *protoregistry.Files {
	if a == nil {
		a = new(protoregistry.Files)
	}
	b.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		if _, err := a.FindFileByPath(fd.Path()); err != nil {
			a.RegisterFile(fd)
		}
		return true
	})
	return a
}
