package playground

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/wirelab/wirelab/playground/wire"
)

// maxGRPCUpload bounds what one upload of descriptors or a CA may be:
// a service's .proto files, or a protoset with every import, are tens or
// hundreds of kilobytes; a CA certificate is one or two.
const maxGRPCUpload = 4 << 20

// describeTimeout bounds asking a server for its methods by reflection:
// a server that answers at all answers in milliseconds.
const describeTimeout = 10 * time.Second

// grpcDescriptors serves POST /console/grpc/descriptors, what the gRPC
// console learns of a server's methods, for its templates and its checks:
//
//   - a form (multipart/form-data) with a field "kind" (proto, protoset,
//     ca, or cert: a client certificate and its private key) and the
//     files as parts named "file" (several .proto files at once, which
//     may import each other): the files are compiled or read, held by
//     the hub, and answered with the upload:ID a custom-grpc "to" names
//     them by, and the methods they describe (for a client certificate,
//     whom it names; its key is never answered back);
//   - JSON {"target": "grpc" or "custom-grpc", "to": ...}: the methods of
//     the target, from the descriptors its "to" names, or by reflection.
//
// The answer is wire.GRPCDescription as JSON, or {"error": ...}. The
// playground's door has checked Host and Origin, as for every request;
// uploads, and every custom target, are for a page on this machine only,
// as the custom targets themselves are.
func grpcDescriptors(hub *wire.Hub) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if hub == nil {
			jsonError(w, http.StatusServiceUnavailable, "this playground has no engine to reach a gRPC server")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxGRPCUpload+64<<10)
		ctx, cancel := context.WithTimeout(r.Context(), describeTimeout)
		defer cancel()
		var (
			desc wire.GRPCDescription
			err  error
		)
		if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
			if !wire.IsLocalPeer(r) {
				jsonError(w, http.StatusForbidden, "files are uploaded from this machine only")
				return
			}
			kind, parts, ferr := grpcUploadForm(r)
			var tooBig *http.MaxBytesError
			if errors.As(ferr, &tooBig) {
				jsonError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the files are larger than %d MiB together, the most the playground reads", maxGRPCUpload>>20))
				return
			}
			if ferr != nil {
				jsonError(w, http.StatusBadRequest, ferr.Error())
				return
			}
			desc, err = hub.UploadGRPC(ctx, kind, parts)
		} else {
			var ask struct{ Target, To string }
			if err := json.NewDecoder(r.Body).Decode(&ask); err != nil {
				jsonError(w, http.StatusBadRequest, `send {"target": "grpc" or "custom-grpc", "to": ...} as JSON, or files as a form`)
				return
			}
			if ask.Target != "grpc" && !wire.IsLocalPeer(r) {
				jsonError(w, http.StatusForbidden, "your own server is reached from this machine only")
				return
			}
			desc, err = hub.DescribeGRPC(ctx, ask.Target, ask.To)
		}
		if err != nil {
			jsonError(w, http.StatusUnprocessableEntity, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, desc)
	}
}

// grpcUploadForm reads the kind and the files of an upload form, at most
// maxGRPCUpload bytes of files in all. The parts are read into memory
// only, never into temporary files as ParseMultipartForm may write them:
// a pasted private key must not reach the disk.
func grpcUploadForm(r *http.Request) (kind string, parts map[string][]byte, err error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, fmt.Errorf("reading the form: %w", err)
	}
	parts = map[string][]byte{}
	left := int64(maxGRPCUpload)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", nil, fmt.Errorf("reading the form: %w", err)
		}
		b, err := io.ReadAll(io.LimitReader(part, left+1))
		if err != nil {
			return "", nil, fmt.Errorf("reading the form: %w", err)
		}
		if left -= int64(len(b)); left < 0 {
			return "", nil, &http.MaxBytesError{Limit: maxGRPCUpload}
		}
		switch part.FormName() {
		case "kind":
			kind = string(b)
		case "file":
			// A browser sends a file's name only; a path is not this
			// machine's business.
			name := filepath.Base(filepath.FromSlash(strings.ReplaceAll(part.FileName(), `\`, "/")))
			if name == "." || name == "/" || name == "" {
				name = fmt.Sprintf("file%d", len(parts)+1)
			}
			parts[name] = b
		}
	}
	if len(parts) == 0 {
		return "", nil, errors.New("the form has no file: choose a .proto file, a protoset, or paste a CA or a client certificate and its key")
	}
	return kind, parts, nil
}
