package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/reporter"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// A server without reflection cannot say what its methods are, and the
// bytes of a message carry only field numbers, never names or types. So
// a client needs the descriptors from elsewhere, as grpcurl does with
// -proto and -protoset:
//
//   - the .proto source, compiled here in the process (no protoc): the
//     files are parsed, their imports found (beside them, or among the
//     well-known types such as google/protobuf/timestamp.proto that
//     every compiler ships), and the names linked into descriptors;
//   - a protoset: a FileDescriptorSet, the binary message that
//     `protoc --include_imports --descriptor_set_out=FILE` writes, which
//     is the compiled descriptors already. (It is the same thing
//     reflection sends, one serialized FileDescriptorProto at a time.)
//
// Either way the result is a protoregistry.Files for Options.Files.

// maxProtoFiles bounds the files of one compilation or one protoset: a
// service and everything it imports are a few dozen files, and a set
// that claims thousands is a mistake or an attack on memory.
const maxProtoFiles = 1000

// CompileProtos compiles .proto sources given by name ("tools/v1/tools.proto"
// -> its text). An import is found among the sources under the path it is
// imported by, or else among the well-known types; nothing is read from
// disk. The errors name the file, line and column, as a compiler's do.
func CompileProtos(ctx context.Context, sources map[string][]byte) (*protoregistry.Files, error) {
	if len(sources) == 0 {
		return nil, errors.New("no .proto files to compile")
	}
	if len(sources) > maxProtoFiles {
		return nil, fmt.Errorf("%d .proto files; at most %d are compiled at once", len(sources), maxProtoFiles)
	}
	sources = underImportedNames(sources)
	open := func(name string) (io.ReadCloser, error) {
		src, ok := sources[name]
		if !ok {
			return nil, missingImport(name, slices.Sorted(maps.Keys(sources)))
		}
		return io.NopCloser(strings.NewReader(string(src))), nil
	}
	return compile(ctx, slices.Sorted(maps.Keys(sources)), &protocompile.SourceResolver{Accessor: open})
}

// importLine finds the files a .proto file imports.
var importLine = regexp.MustCompile(`(?m)^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;`)

// underImportedNames renames sources given by their base names alone, as
// a browser uploads files, to the paths other sources import them by:
// "place.proto" becomes "notes/place.proto" when a source imports that
// and no other source is named place.proto. A file compiled under two
// names would define its types twice.
func underImportedNames(sources map[string][]byte) map[string][]byte {
	out := maps.Clone(sources)
	for _, src := range sources {
		for _, m := range importLine.FindAllStringSubmatch(string(src), -1) {
			imported, base := m[1], path.Base(m[1])
			if _, ok := out[imported]; ok || imported == base {
				continue
			}
			if b, ok := out[base]; ok {
				delete(out, base)
				out[imported] = b
			}
		}
	}
	return out
}

// CompileProtoFile compiles the .proto file at path on this machine, with
// its imports looked for relative to the file's own folder and, as grpcurl
// -import-path does, in the folders given, then among the well-known
// types.
func CompileProtoFile(ctx context.Context, path string, importPaths ...string) (*protoregistry.Files, error) {
	dir, name := filepath.Split(filepath.Clean(path))
	if dir == "" {
		dir = "."
	}
	return compile(ctx, []string{name}, &protocompile.SourceResolver{ImportPaths: append([]string{dir}, importPaths...)})
}

// missingImport says that an import was not among the files given, and
// what to do about it.
func missingImport(name string, given []string) error {
	return fmt.Errorf("%s is imported but was not given (given: %s); give every file it imports too, or a protoset made with protoc --include_imports", name, strings.Join(given, ", "))
}

// compile runs the compiler over files and gathers every file it linked,
// imports included, into one registry.
func compile(ctx context.Context, files []string, r protocompile.Resolver) (*protoregistry.Files, error) {
	// The reporter stops at the first error, and a warning (an unused
	// import) is no reason to refuse a file.
	var first error
	rep := reporter.NewReporter(func(err reporter.ErrorWithPos) error {
		if first == nil {
			first = err
		}
		return err
	}, nil)
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(r), Reporter: rep}
	linked, err := c.Compile(ctx, files...)
	if first != nil {
		err = first
	}
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", strings.Join(files, ", "), err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imports := fd.Imports()
		for i := range imports.Len() {
			add(imports.Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	for _, fd := range linked {
		add(fd)
	}
	return filesOf(set)
}

// ReadProtoset reads a protoset: a FileDescriptorSet in Protobuf's binary
// encoding. Every file a file imports must be in the set, as protoc
// --include_imports makes sure.
func ReadProtoset(b []byte) (*protoregistry.Files, error) {
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(b, set); err != nil {
		return nil, fmt.Errorf("not a protoset (a FileDescriptorSet, as protoc --descriptor_set_out writes): %w", err)
	}
	if len(set.File) == 0 {
		return nil, errors.New("the protoset holds no files")
	}
	return filesOf(set)
}

// ReadProtosetFile reads the protoset at path on this machine.
func ReadProtosetFile(path string) (*protoregistry.Files, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ReadProtoset(b)
}

// filesOf links a set of file descriptors into a registry.
func filesOf(set *descriptorpb.FileDescriptorSet) (*protoregistry.Files, error) {
	if len(set.File) > maxProtoFiles {
		return nil, fmt.Errorf("%d files; at most %d are read", len(set.File), maxProtoFiles)
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		var missing []string
		for _, fd := range set.File {
			missing = append(missing, fd.GetName())
		}
		return nil, fmt.Errorf("the files do not fit together (%s): %w; a protoset made without --include_imports lacks the files its files import", strings.Join(missing, ", "), err)
	}
	return files, nil
}

// Services lists the services that files describe, by full name, sorted.
func Services(files *protoregistry.Files) []protoreflect.ServiceDescriptor {
	var out []protoreflect.ServiceDescriptor
	files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		for i := range fd.Services().Len() {
			out = append(out, fd.Services().Get(i))
		}
		return true
	})
	slices.SortFunc(out, func(a, b protoreflect.ServiceDescriptor) int {
		return strings.Compare(string(a.FullName()), string(b.FullName()))
	})
	return out
}

// Describe asks the server at target, by reflection, which services it
// offers, and for the files that describe each of them, over a
// connection of its own. It leaves out reflection itself. A nil creds
// means plaintext HTTP/2.
func Describe(ctx context.Context, target string, creds credentials.TransportCredentials, md metadata.MD) (*protoregistry.Files, error) {
	if creds == nil {
		creds = insecure.NewCredentials()
	}
	names, err := askServices(ctx, target, creds, md)
	if err != nil {
		return nil, err
	}
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	for _, name := range names {
		if strings.HasPrefix(name, "grpc.reflection.") {
			continue // the means of describing, not a service of the server's own
		}
		files, err := askServer(ctx, target, name, creds, md)
		if err != nil {
			return nil, err
		}
		files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
			if !seen[fd.Path()] {
				seen[fd.Path()] = true
				set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
			}
			return true
		})
	}
	return filesOf(set)
}

// askServices asks the server for the names of its services
// (ListServices), on v1 or, failing that, v1alpha.
func askServices(ctx context.Context, target string, creds credentials.TransportCredentials, md metadata.MD) ([]string, error) {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ctx = metadata.NewOutgoingContext(ctx, md)
	for _, path := range reflectionPaths {
		names, err := listOn(ctx, conn, path)
		switch {
		case status.Code(err) == codes.Unimplemented:
			continue
		case status.Code(err) == codes.Unavailable:
			return nil, unreachable(target, err)
		case err != nil:
			return nil, fmt.Errorf("asking the server at %s for its services by reflection: %w", target, err)
		}
		return names, nil
	}
	return nil, fmt.Errorf("%w: the server at %s answers UNIMPLEMENTED to grpc.reflection.v1 and v1alpha; give its .proto files or a protoset to describe its methods", ErrNoReflection, target)
}

// ErrNoReflection is what Describe returns, wrapped, for a server that
// offers no reflection.
var ErrNoReflection = errors.New("no reflection")

// listOn runs one ListServices exchange on path.
func listOn(ctx context.Context, conn *grpc.ClientConn, path string) ([]string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the stream, however this returns
	stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}, path)
	if err != nil {
		return nil, err
	}
	// io.EOF from SendMsg means the server has ended the stream; RecvMsg
	// then returns the status it ended it with.
	if err := stream.SendMsg(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{ListServices: "*"}}); err != nil && err != io.EOF {
		return nil, err
	}
	resp := new(rpb.ServerReflectionResponse)
	if err := stream.RecvMsg(resp); err != nil {
		return nil, err
	}
	if e := resp.GetErrorResponse(); e != nil {
		return nil, status.Error(codes.Code(e.ErrorCode), e.ErrorMessage)
	}
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	slices.Sort(names)
	return names, nil
}
