package wire

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wirelab/wirelab/protocols/tools"
)

// notesFiles compiles testdata/notes/notes.proto from disk, with
// testdata as the import path that "notes/place.proto" is found under.
func notesFiles(t testing.TB) *protoregistry.Files {
	t.Helper()
	files, err := CompileProtoFile(t.Context(), "testdata/notes/notes.proto", "testdata")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// serveNotes serves notes.v1.Notes from files alone, with no generated
// code and no reflection: every method answers with the message it was
// sent. It returns the server's address.
func serveNotes(t testing.TB, files *protoregistry.Files) string {
	t.Helper()
	echo := func(_ any, stream grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(stream)
		service, name, err := splitMethod(method)
		if err != nil {
			return status.Error(codes.Unimplemented, err.Error())
		}
		md, err := findMethod(files, service, name)
		if err != nil {
			return status.Error(codes.Unimplemented, err.Error())
		}
		req := dynamicpb.NewMessage(md.Input())
		if err := stream.RecvMsg(req); err != nil {
			return err
		}
		return stream.SendMsg(req)
	}
	return serve(t, grpc.NewServer(grpc.UnknownServiceHandler(echo)))
}

// TestCallWithoutReflection calls a server that offers no reflection,
// with the descriptors compiled from its .proto, uploaded as sources, and
// read from a protoset; without them the call says what to give.
func TestCallWithoutReflection(t *testing.T) {
	fromFile := notesFiles(t)
	addr := serveNotes(t, fromFile)

	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata/notes", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// A browser uploads files by their base names; the import of
	// notes/place.proto still finds place.proto.
	fromSources, err := CompileProtos(t.Context(), map[string][]byte{"notes.proto": read("notes.proto"), "place.proto": read("place.proto")})
	if err != nil {
		t.Fatal(err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	fromFile.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
		return true
	})
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	fromProtoset, err := ReadProtoset(b)
	if err != nil {
		t.Fatal(err)
	}

	body := base64.StdEncoding.EncodeToString([]byte(`{"text":"hello"}`))
	request := `{"id":"n1","body":"` + body + `","kind":"KIND_TEXT","place":{"name":"desk","parent":{"name":"room"}}}`
	for name, files := range map[string]*protoregistry.Files{"file": fromFile, "sources": fromSources, "protoset": fromProtoset} {
		t.Run(name, func(t *testing.T) {
			e, err := Capture(t.Context(), addr, "notes.v1.Notes/Save", []byte(request), &Options{Files: files})
			if err != nil {
				t.Fatal(err)
			}
			if e.Code != codes.OK || len(e.Responses) != 1 {
				t.Fatalf("status %v %q, %d responses", e.Code, e.StatusMessage, len(e.Responses))
			}
			if got := string(e.Responses[0].JSON); !strings.Contains(got, `"body":"`+body+`"`) || !strings.Contains(got, `"parent":{"name":"room"}`) {
				t.Errorf("response %s does not echo the request", got)
			}
		})
	}

	_, err = Capture(t.Context(), addr, "notes.v1.Notes/Save", []byte(request), nil)
	if err == nil || !strings.Contains(err.Error(), "offers no reflection") {
		t.Errorf("without descriptors: %v, want a word about reflection", err)
	}
	_, err = Describe(t.Context(), addr, nil, nil)
	if !errors.Is(err, ErrNoReflection) {
		t.Errorf("Describe: %v, want ErrNoReflection", err)
	}
}

// TestDescribe lists the services of a server with reflection, leaving
// reflection itself out.
func TestDescribe(t *testing.T) {
	addr := startServer(t, tools.New(nil), nil)
	files, err := Describe(t.Context(), addr, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range Services(files) {
		names = append(names, string(s.FullName()))
	}
	if got := strings.Join(names, " "); got != "grpc.health.v1.Health tools.v1.ToolServer" {
		t.Errorf("services %q", got)
	}
}

// TestCompileErrors names the file and line of a mistake, and the import
// that was not given.
func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sources map[string][]byte
		want    string
	}{
		{"syntax", map[string][]byte{"a.proto": []byte("syntax = \"proto3\";\nmessage A { string x = 1 }\n")}, "a.proto:2:"},
		{"missing import", map[string][]byte{"a.proto": []byte("syntax = \"proto3\";\nimport \"b/c.proto\";\n")}, "b/c.proto is imported but was not given"},
		{"unknown type", map[string][]byte{"a.proto": []byte("syntax = \"proto3\";\nmessage A { B b = 1; }\n")}, "unknown type B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CompileProtos(t.Context(), tc.sources)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to hold %q", err, tc.want)
			}
		})
	}
	if _, err := ReadProtoset([]byte("not a protoset")); err == nil {
		t.Error("ReadProtoset took text")
	}
}

// TestSkeleton writes every kind of field at its zero value, and what it
// writes is a request the method's message accepts.
func TestSkeleton(t *testing.T) {
	files := notesFiles(t)
	d, err := files.FindDescriptorByName("notes.v1.Note")
	if err != nil {
		t.Fatal(err)
	}
	md := d.(protoreflect.MessageDescriptor)
	got := Skeleton(md)
	want := `{
  "id": "",
  "body": "",
  "kind": "KIND_UNSPECIFIED",
  "at": "1970-01-01T00:00:00Z",
  "tags": [],
  "size": "0",
  "path": "",
  "labels": {}
}`
	if got != want {
		t.Errorf("Skeleton:\n%s\nwant:\n%s", got, want)
	}
	place, _ := files.FindDescriptorByName("notes.v1.Place")
	if got := Skeleton(place.(protoreflect.MessageDescriptor)); got != "{\n  \"name\": \"\",\n  \"parent\": {}\n}" {
		t.Errorf("a recursive type: %s", got)
	}
	if err := protojson.Unmarshal([]byte(got), dynamicpb.NewMessage(md)); err != nil {
		t.Errorf("the skeleton is not a Note: %v", err)
	}
}
