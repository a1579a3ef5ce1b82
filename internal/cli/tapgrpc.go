package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"google.golang.org/grpc/credentials"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/grpctool/wire"
)

// reflectTimeout bounds asking a server for its descriptors when a
// recording is printed: the server may long be gone, and the frames
// print without names then.
const reflectTimeout = 5 * time.Second

// printGRPC prints the calls of a recording of the gRPC relay. With
// full, every frame of each connection, and each message field by field
// and as JSON, as `wirelab client grpc --wire` prints a call it made.
// Descriptors come from the recording when the tap got them, else by
// reflection from target (host:port), the tapped server unless told
// otherwise; when it cannot answer, fields are shown by number. With ru,
// the lines it words itself are in Russian; a call's own print (package
// wire) is not.
func printGRPC(ctx context.Context, w io.Writer, events []tap.Event, target string, creds credentials.TransportCredentials, full, ru bool) {
	calls := tapcheck.Connections(events, nil)
	if len(calls) == 0 {
		return
	}
	// The descriptors the tap recorded, else the server's, by reflection.
	files := tap.Descriptors(events)
	if full && files != nil {
		calls = tapcheck.Connections(events, files)
	} else if full && target != "" {
		var problems []string
		files, problems = reflectAll(ctx, target, creds, calls)
		for _, p := range problems {
			if ru {
				fmt.Fprintf(w, "нет дескрипторов, поля показаны по номерам: %s\n", p)
				continue
			}
			fmt.Fprintf(w, "no descriptors, fields shown by number: %s\n", p)
		}
		calls = tapcheck.Connections(events, files)
	}
	for _, c := range calls {
		if !full {
			for _, call := range c.Calls {
				if ru {
					fmt.Fprintf(w, "соединение %d, поток %d: %s %s, %s, %s\n", c.Conn, call.StreamID, call.Method, call.Code,
						countRU(len(call.Requests), "запрос", "запроса", "запросов"), countRU(len(call.Responses), "ответ", "ответа", "ответов"))
					continue
				}
				fmt.Fprintf(w, "connection %d, stream %d: %s %s, %s, %s\n", c.Conn, call.StreamID, call.Method, call.Code,
					count(len(call.Requests), "request", "requests"), count(len(call.Responses), "response", "responses"))
			}
			continue
		}
		if ru {
			fmt.Fprintf(w, "соединение %d: %s, %s; кадры самого соединения (поток 0):\n", c.Conn,
				countRU(len(c.Frames), "кадр", "кадра", "кадров"), countRU(len(c.Calls), "вызов", "вызова", "вызовов"))
		} else {
			fmt.Fprintf(w, "connection %d: %s, %s; the connection's own frames (stream 0):\n", c.Conn,
				count(len(c.Frames), "frame", "frames"), count(len(c.Calls), "call", "calls"))
		}
		event := "event"
		if ru {
			event = "событие"
		}
		for i, f := range c.Frames {
			if f.StreamID != 0 {
				continue
			}
			fmt.Fprintf(w, "  %s %d: %s %s len=%d", event, c.Events[i], f.Dir, f.Type, f.Length)
			for _, flag := range f.Flags {
				fmt.Fprintf(w, " %s", flag)
			}
			if f.Detail != "" {
				fmt.Fprintf(w, " %s", f.Detail)
			}
			fmt.Fprintln(w)
		}
		for _, call := range c.Calls {
			fmt.Fprintln(w)
			call.Format(w)
		}
		fmt.Fprintln(w)
	}
}

// reflectAll asks target for the descriptors of every service the
// recording calls, and returns them in one registry.
func reflectAll(ctx context.Context, target string, creds credentials.TransportCredentials, conns []tapcheck.Connection) (*protoregistry.Files, []string) {
	ctx, cancel := context.WithTimeout(ctx, reflectTimeout)
	defer cancel()
	all := new(protoregistry.Files)
	asked := map[string]bool{}
	var problems []string
	for _, c := range conns {
		for _, call := range c.Calls {
			service, _, _ := strings.Cut(strings.TrimPrefix(call.Method, "/"), "/")
			if asked[service] {
				continue
			}
			asked[service] = true
			files, err := wire.Reflect(ctx, target, service, creds)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
				if _, err := all.FindFileByPath(fd.Path()); err != nil {
					all.RegisterFile(fd)
				}
				return true
			})
		}
	}
	return all, problems
}

// grpcTarget is where to ask for descriptors: --reflect, or the upstream
// the recording names (grpc://host:port, or grpcs:// for TLS), with the
// credentials for it.
func grpcTarget(events []tap.Event, reflect, caFile string) (string, credentials.TransportCredentials, error) {
	target, secure := reflect, caFile != ""
	if target == "" && len(events) > 0 {
		u := events[0].Upstream
		switch {
		case strings.HasPrefix(u, "grpc://"):
			target = strings.TrimPrefix(u, "grpc://")
		case strings.HasPrefix(u, "grpcs://"):
			target, secure = strings.TrimPrefix(u, "grpcs://"), true
		}
	}
	if !secure {
		return target, nil, nil
	}
	cfg, err := grpctool.ClientTLS(caFile, "", "")
	if err != nil {
		return "", nil, usageErrorf("tap check: %v", err)
	}
	return target, credentials.NewTLS(cfg), nil
}
