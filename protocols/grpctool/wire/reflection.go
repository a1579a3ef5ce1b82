package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	rpbalpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Server reflection (grpc.reflection.v1) lets a client that has no .proto
// file ask the server for one. It is itself a gRPC service with one
// bidirectional method: the client names a symbol ("tools.v1.ToolServer"),
// the server answers with the compiled .proto file that defines it, as a
// serialized FileDescriptorProto, and the client asks again for each file
// that one imports, until it has them all.
//
// v1alpha is the same service under an older name, kept for older
// clients; its messages are identical to v1's field for field, so the v1
// Go types can be sent to either path: the bytes on the wire are the same.
var reflectionPaths = []string{
	rpb.ServerReflection_ServerReflectionInfo_FullMethodName,
	rpbalpha.ServerReflection_ServerReflectionInfo_FullMethodName,
}

// askServer returns the files that define service and everything they
// import, asked of the server over a connection of its own, so that the
// capture of the call holds nothing but the call. Its errors say what to
// do about them, except for UNAVAILABLE, which the caller words.
func askServer(ctx context.Context, target, service string, creds credentials.TransportCredentials, md metadata.MD) (*protoregistry.Files, error) {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ctx = metadata.NewOutgoingContext(ctx, md)
	for _, path := range reflectionPaths {
		files, err := reflectFiles(ctx, conn, path, service)
		var unknown *unknownServiceError
		switch {
		case status.Code(err) == codes.Unimplemented:
			continue // an older server may offer only v1alpha
		case errors.As(err, &unknown):
			msg := fmt.Sprintf("the server at %s does not offer service %s", target, service)
			if len(unknown.listed) > 0 {
				msg += "; it lists: " + strings.Join(unknown.listed, ", ")
			}
			return nil, errors.New(msg)
		case err != nil && status.Code(err) != codes.Unavailable:
			return nil, fmt.Errorf("asking the server at %s for %s by reflection: %w", target, service, err)
		}
		return files, err
	}
	return nil, fmt.Errorf("the server at %s offers no reflection (grpc.reflection.v1 or v1alpha) to describe its methods; give Options.Files to describe them instead", target)
}

// unknownServiceError is reflection's NOT_FOUND for the service asked for,
// with the services the server does list.
type unknownServiceError struct {
	listed []string
}

func (e *unknownServiceError) Error() string { return "service not found" }

// reflectFiles runs one reflection stream on path.
func reflectFiles(ctx context.Context, conn *grpc.ClientConn, path, service string) (*protoregistry.Files, error) {
	// Cancelling ctx ends the stream when this function returns, however
	// it returns.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}, path)
	if err != nil {
		return nil, err
	}
	// ask sends one request and reads its answer. A failure the server
	// reports inside an answer (ErrorResponse) becomes a status error too.
	ask := func(req *rpb.ServerReflectionRequest) (*rpb.ServerReflectionResponse, error) {
		// io.EOF from SendMsg means the server has ended the stream;
		// RecvMsg then returns the status it ended it with.
		if err := stream.SendMsg(req); err != nil && err != io.EOF {
			return nil, err
		}
		resp := new(rpb.ServerReflectionResponse)
		if err := stream.RecvMsg(resp); err != nil {
			return nil, err
		}
		if e := resp.GetErrorResponse(); e != nil {
			return nil, status.Error(codes.Code(e.ErrorCode), e.ErrorMessage)
		}
		return resp, nil
	}

	resp, err := ask(&rpb.ServerReflectionRequest{
		MessageRequest: &rpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: service},
	})
	if status.Code(err) == codes.NotFound {
		return nil, &unknownServiceError{listed: listServices(ask)}
	}
	if err != nil {
		return nil, err
	}
	// An answer holds a file and perhaps some of the files it imports;
	// ask for each import that has not come yet, until none is missing.
	files := map[string]*descriptorpb.FileDescriptorProto{}
	var todo []*descriptorpb.FileDescriptorProto // files whose imports are not yet checked
	add := func(resp *rpb.ServerReflectionResponse) error {
		for _, b := range resp.GetFileDescriptorResponse().GetFileDescriptorProto() {
			fd := new(descriptorpb.FileDescriptorProto)
			if err := proto.Unmarshal(b, fd); err != nil {
				return fmt.Errorf("reading a file descriptor from reflection: %w", err)
			}
			if files[fd.GetName()] == nil {
				if len(files) == maxReflectedFiles {
					return fmt.Errorf("the server sent more than %d files by reflection; one service and its imports are never that many", maxReflectedFiles)
				}
				files[fd.GetName()] = fd
				todo = append(todo, fd)
			}
		}
		return nil
	}
	if err := add(resp); err != nil {
		return nil, err
	}
	for len(todo) > 0 {
		fd := todo[0]
		todo = todo[1:]
		for _, dep := range fd.GetDependency() {
			if files[dep] != nil {
				continue
			}
			resp, err := ask(&rpb.ServerReflectionRequest{
				MessageRequest: &rpb.ServerReflectionRequest_FileByFilename{FileByFilename: dep},
			})
			if err != nil {
				return nil, fmt.Errorf("asking for %s, which %s imports: %w", dep, fd.GetName(), err)
			}
			if err := add(resp); err != nil {
				return nil, err
			}
		}
	}
	set := &descriptorpb.FileDescriptorSet{}
	for _, fd := range files {
		set.File = append(set.File, fd)
	}
	registry, err := protodesc.NewFiles(set)
	if err != nil {
		return nil, fmt.Errorf("the files the server sent by reflection do not fit together: %w", err)
	}
	return registry, nil
}

// maxReflectedFiles bounds the files asked for by reflection. A server
// that answers each request with a new file importing yet another would
// otherwise be asked forever; a real service and everything it imports,
// the well-known types included, are a few dozen files.
const maxReflectedFiles = 1000

// listServices asks for the names of the services the server offers, so
// that an error can suggest one. It returns nil if the server will not say.
func listServices(ask func(*rpb.ServerReflectionRequest) (*rpb.ServerReflectionResponse, error)) []string {
	resp, err := ask(&rpb.ServerReflectionRequest{
		MessageRequest: &rpb.ServerReflectionRequest_ListServices{ListServices: "*"},
	})
	if err != nil {
		return nil
	}
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	slices.Sort(names)
	return names
}
