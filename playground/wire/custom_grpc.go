package wire

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	grpcwire "github.com/wirelab/wirelab/protocols/grpctool/wire"
)

// A custom-grpc target's "to" is the server's host:port, then, as
// grpcurl spells them, how to reach it:
//
//	127.0.0.1:9000                                   plaintext, methods by reflection
//	api.example.com:443 -tls                         TLS, verified against the system roots
//	localhost:9443 -cacert /home/me/ca.pem           TLS, verified against that CA file
//	localhost:9443 -cacert upload:1f2e3d4c5b6a7980   ... or a CA pasted on the page
//	10.0.0.5:9443 -cacert ca.pem -servername api.internal
//	localhost:9443 -cacert ca.pem -cert me.pem -key me-key.pem    mutual TLS: this side's certificate
//	localhost:9443 -cacert ca.pem -cert upload:5a6b7c8d9e0f1a2b -key upload:5a6b7c8d9e0f1a2b
//	                                                 ... and key, or both pasted on the page
//	127.0.0.1:9000 -proto /home/me/api/notes.proto -import-path /home/me/api
//	127.0.0.1:9000 -protoset /home/me/api.protoset
//	127.0.0.1:9000 -proto upload:0a1b2c3d4e5f6071    a .proto uploaded from the page
//
// Words are split as a shell splits them, so a path with a space is
// quoted. Files named are read by the playground, on this machine, when
// the tab first calls the target (and again after Reconnect); uploads are
// held by the hub (POST /console/grpc/descriptors).

// grpcTo is a custom-grpc "to", read.
type grpcTo struct {
	addr        string
	tls         bool
	caFile      string // a path, or "upload:ID"
	serverName  string
	certFile    string   // the client's certificate: a path, or "upload:ID"
	keyFile     string   // its private key: a path, or the same "upload:ID"
	protos      []string // paths, or "upload:ID"
	protoset    string   // a path, or "upload:ID"
	importPaths []string
}

// uploadPrefix marks a value that names an upload held by the hub.
const uploadPrefix = "upload:"

// parseGRPCTo reads a custom-grpc "to".
func parseGRPCTo(to string) (grpcTo, error) {
	words, err := splitCommandLine(to)
	if err != nil {
		return grpcTo{}, fmt.Errorf("custom-grpc: %v", err)
	}
	addr, err := customAddr(words[0])
	if err != nil {
		return grpcTo{}, err
	}
	g := grpcTo{addr: addr}
	for i := 1; i < len(words); i++ {
		flag := "-" + strings.TrimLeft(words[i], "-")
		value := func() (string, error) {
			if i+1 == len(words) {
				return "", say(noteGRPCNeedsValue, flag)
			}
			i++
			return words[i], nil
		}
		var v string
		switch flag {
		case "-plaintext":
			g.tls = false
			continue
		case "-tls":
			g.tls = true
			continue
		case "-cacert", "-cert", "-key", "-servername", "-proto", "-protoset", "-import-path":
			if v, err = value(); err != nil {
				return grpcTo{}, err
			}
		default:
			return grpcTo{}, say(noteGRPCUnknownOption, words[i])
		}
		switch flag {
		case "-cacert":
			g.tls, g.caFile = true, v
		case "-cert":
			g.tls, g.certFile = true, v
		case "-key":
			g.tls, g.keyFile = true, v
		case "-servername":
			g.tls, g.serverName = true, v
		case "-proto":
			g.protos = append(g.protos, v)
		case "-protoset":
			g.protoset = v
		case "-import-path":
			g.importPaths = append(g.importPaths, v)
		}
	}
	if g.protoset != "" && len(g.protos) > 0 {
		return grpcTo{}, say(noteGRPCProtoOrProtoset)
	}
	// As grpcurl: a client certificate comes with its key. A pasted one
	// is one upload holding both, named twice.
	if (g.certFile == "") != (g.keyFile == "") {
		return grpcTo{}, say(noteGRPCCertAndKey)
	}
	certUp, keyUp := strings.HasPrefix(g.certFile, uploadPrefix), strings.HasPrefix(g.keyFile, uploadPrefix)
	if (certUp || keyUp) && g.certFile != g.keyFile {
		return grpcTo{}, say(noteGRPCOneUpload, g.certFile, g.certFile)
	}
	return g, nil
}

// sendCustomGRPC serves "send" for a custom-grpc target: the call, on the
// tab's client for this "to".
func (s *session) sendCustomGRPC(c Command) {
	to, err := parseGRPCTo(c.To)
	if err != nil {
		s.refuse(c.ID, s.explain(err))
		return
	}
	s.exchange(c, func(ctx context.Context) error {
		return s.callGRPC(ctx, c, strings.TrimSpace(c.To), func() (*grpcDial, error) { return s.hub.grpcDial(ctx, to) })
	})
}

// restartCustomGRPC serves "restart" for a custom-grpc target.
func (s *session) restartCustomGRPC(c Command) {
	if _, err := parseGRPCTo(c.To); err != nil {
		s.refuse(c.ID, s.explain(err))
		return
	}
	s.dropGRPCClient(strings.TrimSpace(c.To))
	s.emit(Event{ID: c.ID, Target: c.Target, To: c.To, Dir: "note", Kind: "restart", Text: s.say(noteCustomGRPCRestart, c.To)})
}

// grpcDial makes what a client of to needs: the credentials, and the
// descriptors when to gives them.
func (h *Hub) grpcDial(ctx context.Context, to grpcTo) (*grpcDial, error) {
	d := &grpcDial{addr: to.addr, custom: true, creds: newWatchedCreds(nil, "")}
	if to.tls {
		cfg := &tls.Config{ServerName: to.serverName}
		trusts := "this machine's system roots"
		if to.caFile != "" {
			pool, err := h.caPool(to.caFile)
			if err != nil {
				return nil, err
			}
			cfg.RootCAs = pool
			trusts = "the CA in " + to.caFile
			if strings.HasPrefix(to.caFile, uploadPrefix) {
				trusts = "the CA pasted on the page (" + to.caFile + ")"
			}
		}
		if to.certFile != "" {
			pair, err := h.clientCert(to.certFile, to.keyFile)
			if err != nil {
				return nil, err
			}
			cfg.Certificates = []tls.Certificate{pair}
		}
		d.creds = newWatchedCreds(cfg, trusts)
		d.creds.client = clientCertSays(to.certFile)
	}
	files, err := h.descriptorsOf(ctx, to)
	if err != nil {
		return nil, err
	}
	d.files = files
	return d, nil
}

// caPool reads the CA certificates of a file on this machine, or of an
// upload.
func (h *Hub) caPool(name string) (*x509.CertPool, error) {
	var pemBytes []byte
	if id, ok := strings.CutPrefix(name, uploadPrefix); ok {
		u, ok := h.grpcUploads.get(id)
		if !ok || u.pem == nil {
			return nil, say(noteGRPCNoCA, name)
		}
		pemBytes = u.pem
	} else {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, say(noteGRPCReadingCA, err)
		}
		pemBytes = b
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemBytes) {
		return nil, say(noteGRPCNoPEM, name)
	}
	return pool, nil
}

// clientCert reads the client's certificate and private key: files on
// this machine, or an upload.
func (h *Hub) clientCert(certFile, keyFile string) (tls.Certificate, error) {
	if id, ok := strings.CutPrefix(certFile, uploadPrefix); ok {
		u, ok := h.grpcUploads.get(id)
		if !ok || u.cert == nil {
			return tls.Certificate{}, say(noteGRPCNoClientCert, certFile)
		}
		return *u.cert, nil
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return tls.Certificate{}, say(noteGRPCReadingClientCert, certFile, keyFile, err)
	}
	return pair, nil
}

// clientCertSays names the client certificate for the notes: "" for
// none.
func clientCertSays(certFile string) string {
	switch {
	case certFile == "":
		return ""
	case strings.HasPrefix(certFile, uploadPrefix):
		return "the client certificate pasted on the page (" + certFile + ")"
	}
	return "the client certificate in " + certFile
}

// descriptorsOf returns the descriptors to gives, or nil for none (ask
// the server by reflection).
func (h *Hub) descriptorsOf(ctx context.Context, to grpcTo) (*protoregistry.Files, error) {
	upload := func(name string) (*protoregistry.Files, error) {
		id := strings.TrimPrefix(name, uploadPrefix)
		u, ok := h.grpcUploads.get(id)
		if !ok || u.files == nil {
			return nil, say(noteGRPCNoDescriptors, name)
		}
		return u.files, nil
	}
	switch {
	case strings.HasPrefix(to.protoset, uploadPrefix):
		return upload(to.protoset)
	case to.protoset != "":
		files, err := grpcwire.ReadProtosetFile(to.protoset)
		if err != nil {
			return nil, fmt.Errorf("custom-grpc: %s: %v", to.protoset, err)
		}
		return files, nil
	case len(to.protos) == 1 && strings.HasPrefix(to.protos[0], uploadPrefix):
		return upload(to.protos[0])
	case len(to.protos) == 1:
		files, err := grpcwire.CompileProtoFile(ctx, to.protos[0], to.importPaths...)
		if err != nil {
			return nil, fmt.Errorf("custom-grpc: %v", err)
		}
		return files, nil
	case len(to.protos) > 1:
		return nil, say(noteGRPCOneProto)
	}
	return nil, nil
}

// Uploads: a learner's .proto files, protoset, CA certificate or client
// certificate with its private key, sent from
// the page (POST /console/grpc/descriptors) and named in a custom-grpc
// "to" as upload:ID. An ID is the start of the upload's SHA-256: the same
// files give the same ID, and one cannot be guessed from another.

// maxGRPCUploads bounds the uploads a hub holds: a learner tries a few
// versions of their .proto; the oldest are forgotten first.
const maxGRPCUploads = 32

// grpcUpload is one upload, compiled or read.
type grpcUpload struct {
	id    string
	files *protoregistry.Files // .proto files or a protoset
	pem   []byte               // a CA certificate
	// cert is a client certificate and its private key, parsed. The
	// key is held here, in memory only, for as long as the upload is
	// (until maxGRPCUploads newer ones push it out, or the playground
	// stops); it is never written to disk, and no event, view or answer
	// carries it: the "to" names it by its upload:ID, and the page is
	// told only the certificate's subject.
	cert *tls.Certificate
}

// grpcUploads are the uploads a hub holds, least recently used first.
// The zero value holds none.
type grpcUploads struct {
	mu   sync.Mutex // guards list
	list []grpcUpload
}

func (u *grpcUploads) put(up grpcUpload) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for i, old := range u.list {
		if old.id == up.id {
			u.list = append(u.list[:i:i], u.list[i+1:]...)
			break
		}
	}
	if len(u.list) >= maxGRPCUploads {
		u.list = u.list[1:]
	}
	u.list = append(u.list, up)
}

func (u *grpcUploads) get(id string) (grpcUpload, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, up := range u.list {
		if up.id == id {
			return up, true
		}
	}
	return grpcUpload{}, false
}

// uploadID names an upload by its content.
func uploadID(kind string, parts map[string][]byte) string {
	h := sha256.New()
	h.Write([]byte(kind))
	for _, name := range slices.Sorted(maps.Keys(parts)) {
		fmt.Fprintf(h, "\x00%s\x00%d\x00", name, len(parts[name]))
		h.Write(parts[name])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// UploadGRPC compiles .proto files (kind "proto"), reads a protoset
// ("protoset", one file), a CA certificate in PEM ("ca", one file) or a
// client certificate and its private key in PEM ("cert": one file
// holding both, or two), and holds the result for custom-grpc targets to
// name as upload:ID. For descriptors it returns what they describe, as
// DescribeGRPC does; for a client certificate, whom it names.
func (h *Hub) UploadGRPC(ctx context.Context, kind string, parts map[string][]byte) (GRPCDescription, error) {
	if len(parts) == 0 {
		return GRPCDescription{}, errors.New("no file was sent")
	}
	id := uploadID(kind, parts)
	up := grpcUpload{id: id}
	var err error
	switch kind {
	case "proto":
		up.files, err = grpcwire.CompileProtos(ctx, parts)
	case "protoset", "ca":
		if len(parts) != 1 {
			return GRPCDescription{}, fmt.Errorf("a %s is one file, not %d", kind, len(parts))
		}
		for _, b := range parts {
			if kind == "ca" {
				if !x509.NewCertPool().AppendCertsFromPEM(b) {
					return GRPCDescription{}, errors.New("no PEM certificate (-----BEGIN CERTIFICATE-----) in what was pasted")
				}
				up.pem = b
			} else {
				up.files, err = grpcwire.ReadProtoset(b)
			}
		}
	case "cert":
		if len(parts) > 2 {
			return GRPCDescription{}, fmt.Errorf("a client certificate is its certificate and its key, one file or two, not %d", len(parts))
		}
		var all []byte
		for _, name := range slices.Sorted(maps.Keys(parts)) {
			all = append(append(all, parts[name]...), '\n')
		}
		// X509KeyPair takes the CERTIFICATE blocks of its first argument
		// and the first PRIVATE KEY block of its second, so one PEM text
		// holding both serves as each; it checks that they match.
		pair, perr := tls.X509KeyPair(all, all)
		if perr != nil {
			return GRPCDescription{}, fmt.Errorf("not a client certificate and its private key in PEM (-----BEGIN CERTIFICATE----- and -----BEGIN PRIVATE KEY-----): %v", perr)
		}
		up.cert = &pair
	default:
		return GRPCDescription{}, fmt.Errorf("unknown kind %q: proto, protoset, ca or cert", kind)
	}
	if err != nil {
		return GRPCDescription{}, err
	}
	h.grpcUploads.put(up)
	desc := GRPCDescription{Upload: uploadPrefix + id, Source: kind + " " + strings.Join(slices.Sorted(maps.Keys(parts)), ", ")}
	if up.files != nil {
		desc.Services = describeServices(up.files)
	}
	if up.cert != nil && up.cert.Leaf != nil {
		// The certificate is public; the key is not repeated.
		desc.Source = fmt.Sprintf("client certificate for %q, issued by %q", up.cert.Leaf.Subject.CommonName, up.cert.Leaf.Issuer.CommonName)
	}
	return desc, nil
}

// GRPCDescription is what a gRPC server declares, for the console's
// templates and its composer's checks.
type GRPCDescription struct {
	// Upload is the upload:ID of what was uploaded, for the "to".
	Upload string `json:"upload,omitempty"`
	// Source says where the descriptors came from: "reflection", or the
	// files.
	Source string `json:"source"`
	// Security says how the connection was secured, when one was made.
	Security string        `json:"security,omitempty"`
	Services []GRPCService `json:"services,omitempty"`
}

// GRPCService is one service and its methods.
type GRPCService struct {
	Name    string       `json:"name"`
	Methods []GRPCMethod `json:"methods"`
}

// GRPCMethod is one method: its path, whether each side streams, a frame
// that calls it with every field of its request at the zero value, and
// the request's shape.
type GRPCMethod struct {
	Method          string    `json:"method"` // "pkg.Service/Method"
	ClientStreaming bool      `json:"clientStreaming,omitempty"`
	ServerStreaming bool      `json:"serverStreaming,omitempty"`
	Frame           string    `json:"frame"`
	Input           GRPCShape `json:"input"`
}

// GRPCShape is a message's fields by their JSON names: enough for the
// page to know which fields are bytes, and to say so.
type GRPCShape struct {
	Type   string               `json:"type"` // the message's full name
	Fields map[string]GRPCField `json:"fields,omitempty"`
}

// GRPCField is one field of a GRPCShape.
type GRPCField struct {
	Kind     string     `json:"kind"` // protoreflect's name: "bytes", "string", "message", ...
	Repeated bool       `json:"repeated,omitempty"`
	Map      bool       `json:"map,omitempty"`
	Message  *GRPCShape `json:"message,omitempty"` // a message field's shape, to maxShapeDepth
}

// maxShapeDepth bounds how deep a shape follows message fields: a
// recursive type would otherwise never end, and bytes fields deeper than
// this are rare.
const maxShapeDepth = 6

// describeServices lists the services of files and their methods.
func describeServices(files *protoregistry.Files) []GRPCService {
	var out []GRPCService
	for _, sd := range grpcwire.Services(files) {
		if strings.HasPrefix(string(sd.FullName()), "grpc.reflection.") {
			continue
		}
		svc := GRPCService{Name: string(sd.FullName())}
		for i := range sd.Methods().Len() {
			md := sd.Methods().Get(i)
			path := string(sd.FullName()) + "/" + string(md.Name())
			frame := path + "\n" + grpcwire.Skeleton(md.Input())
			svc.Methods = append(svc.Methods, GRPCMethod{Method: path, ClientStreaming: md.IsStreamingClient(),
				ServerStreaming: md.IsStreamingServer(), Frame: frame, Input: shapeOf(md.Input(), maxShapeDepth)})
		}
		out = append(out, svc)
	}
	return out
}

// shapeOf is md's shape, depth levels of messages deep.
func shapeOf(md protoreflect.MessageDescriptor, depth int) GRPCShape {
	sh := GRPCShape{Type: string(md.FullName()), Fields: map[string]GRPCField{}}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		f := GRPCField{Kind: fd.Kind().String(), Repeated: fd.IsList(), Map: fd.IsMap()}
		if fd.IsMap() {
			fd = fd.MapValue()
			f.Kind = fd.Kind().String()
		}
		if fd.Message() != nil && depth > 1 && !strings.HasPrefix(string(fd.Message().FullName()), "google.protobuf.") {
			inner := shapeOf(fd.Message(), depth-1)
			f.Message = &inner
		}
		sh.Fields[fields.Get(i).JSONName()] = f
	}
	return sh
}

// DescribeGRPC says what a gRPC target declares: the playground's own
// server ("grpc"), or a learner's ("custom-grpc", to), from its .proto
// files or protoset when to names them, and otherwise by reflection.
func (h *Hub) DescribeGRPC(ctx context.Context, target, to string) (GRPCDescription, error) {
	switch target {
	case "grpc":
		if h.targets.GRPCAddr == "" {
			return GRPCDescription{}, errors.New("no gRPC server runs in this playground")
		}
		files, err := grpcwire.Describe(ctx, h.targets.GRPCAddr, nil, nil)
		if err != nil {
			return GRPCDescription{}, err
		}
		return GRPCDescription{Source: "reflection", Services: describeServices(files)}, nil
	case "custom-grpc":
	default:
		return GRPCDescription{}, fmt.Errorf("target %q has no gRPC server to describe: grpc or custom-grpc", target)
	}
	g, err := parseGRPCTo(to)
	if err != nil {
		return GRPCDescription{}, err
	}
	d, err := h.grpcDial(ctx, g)
	if err != nil {
		return GRPCDescription{}, err
	}
	if d.files != nil {
		source := "the descriptors given"
		switch {
		case g.protoset != "":
			source = "protoset " + g.protoset
		case len(g.protos) > 0:
			source = "proto " + g.protos[0]
		}
		return GRPCDescription{Source: source, Services: describeServices(d.files)}, nil
	}
	files, err := grpcwire.Describe(ctx, d.addr, d.creds, nil)
	if err != nil {
		if why := d.creds.diagnose(d.addr, err); why != "" {
			return GRPCDescription{}, errors.New(why)
		}
		if errors.Is(err, grpcwire.ErrNoReflection) {
			return GRPCDescription{}, fmt.Errorf("the server at %s offers no reflection, so it cannot say what its methods are: give its .proto file (or files) or a protoset", d.addr)
		}
		return GRPCDescription{}, err
	}
	return GRPCDescription{Source: "reflection", Security: d.creds.says(d.addr), Services: describeServices(files)}, nil
}
