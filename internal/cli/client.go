package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"mvdan.cc/sh/v3/shell"

	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/stdio"
)

func client(ctx context.Context, args []string, env Env) (int, error) {
	proto, rest, err := sub("client", args, "stdio", "http", "grpc", "mcp", "a2a")
	if err != nil {
		return exitUsage, err
	}
	if proto == "a2a" {
		// An A2A client follows a task rather than calling a tool
		// (a2a.go).
		return clientA2A(ctx, rest, env)
	}
	if proto == "mcp" {
		// An MCP client opens a session rather than making one call, so
		// it has flags and output of its own (mcpclient.go).
		return clientMCP(ctx, rest, env)
	}
	fs := flags("client " + proto)
	timeout := fs.Duration("timeout", 30*time.Second, "how long to wait for an answer")
	version := fs.String("tool-version", "", "ask for this version of the tool")
	var cmdLine, url, token string
	var g grpcFlags
	switch proto {
	case "stdio":
		fs.StringVar(&cmdLine, "cmd", "", `server command line, e.g. "go run ./myserver" (default: this wirelab's own stdio server)`)
	case "http":
		fs.StringVar(&url, "url", "http://"+defaultHTTPAddr, "base URL of the HTTP tool server")
		fs.StringVar(&token, "token", "", "bearer token to send")
	case "grpc":
		g.register(fs)
	}
	if err := parse(fs, rest); err != nil {
		return exitUsage, err
	}
	if g.data != "" && g.method == "" {
		return exitUsage, usageErrorf("--data needs --method")
	}
	var tool string
	var callArgs json.RawMessage
	switch {
	case g.method != "" && fs.NArg() > 0:
		return exitUsage, usageErrorf("with --method, the request is --data, not %q", fs.Arg(0))
	case g.method != "":
	case fs.NArg() == 0:
		return exitUsage, usageErrorf("%s needs a tool name", fs.Name())
	default:
		tool = fs.Arg(0)
		if callArgs, err = toolArgs(fs.Args()[1:]); err != nil {
			return exitUsage, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	switch proto {
	case "grpc":
		return clientGRPC(ctx, &g, tool, callArgs, *version, *timeout, env)
	case "http":
		cl := httpjson.NewClient(url, &httpjson.ClientOptions{Token: token})
		result, err := cl.Call(ctx, stdio.Request{Name: tool, Args: callArgs, Version: *version})
		return report(result, err, env)
	}
	argv, err := serverCommand(cmdLine, env)
	if err != nil {
		return exitUsage, err
	}
	cl, err := stdio.Start(argv, &stdio.ClientOptions{Stderr: env.Stderr})
	if err != nil {
		return exitProtocol, err
	}
	result, err := cl.Call(ctx, tool, callArgs, *version)
	if cerr := cl.Close(); err == nil && cerr != nil {
		fmt.Fprintf(env.Stderr, "wirelab: %v\n", cerr)
	}
	return report(result, err, env)
}

// report prints a call's outcome and picks the exit code. An error the
// server answered with is printed as JSON on stdout too, for scripts.
func report(result json.RawMessage, err error, env Env) (int, error) {
	var werr *stdio.Error
	switch {
	case err == nil:
		fmt.Fprintf(env.Stdout, "%s\n", result)
		return exitOK, nil
	case errors.As(err, &werr):
		b, _ := json.Marshal(struct {
			Error *stdio.Error `json:"error"`
		}{werr})
		fmt.Fprintf(env.Stdout, "%s\n", b)
		if werr.ToolError() {
			return exitToolError, fmt.Errorf("tool error (%s): %s", werr.Code, werr.Message)
		}
		return exitProtocol, fmt.Errorf("protocol error (%s): %s", werr.Code, werr.Message)
	default:
		return exitProtocol, err
	}
}

// serverCommand splits --cmd like a shell would (quotes, $VARS), without
// running a shell. With no --cmd, it is this binary's own stdio server.
func serverCommand(cmdLine string, env Env) ([]string, error) {
	if strings.TrimSpace(cmdLine) == "" {
		if env.Executable == "" {
			return nil, usageErrorf("client stdio needs --cmd")
		}
		return []string{env.Executable, "server", "stdio"}, nil
	}
	argv, err := shell.Fields(cmdLine, nil)
	if err != nil {
		return nil, usageErrorf("--cmd %q: %v", cmdLine, err)
	}
	if len(argv) == 0 {
		return nil, usageErrorf("--cmd is empty")
	}
	return argv, nil
}

// toolArgs builds the arguments object from KEY=VALUE (a string) and
// KEY:=JSON (any JSON value) words, as HTTPie does: "limit:=3" sends the
// number 3, "limit=3" the string "3".
func toolArgs(words []string) (json.RawMessage, error) {
	args := make(map[string]json.RawMessage)
	for _, w := range words {
		if k, v, ok := strings.Cut(w, ":="); ok && !strings.Contains(k, "=") && k != "" {
			if !json.Valid([]byte(v)) {
				return nil, usageErrorf("argument %q: %q is not JSON (use %s=%s for a string)", w, v, k, v)
			}
			args[k] = json.RawMessage(v)
			continue
		}
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, usageErrorf("argument %q is not KEY=VALUE (or KEY:=JSON for numbers, booleans, arrays and objects)", w)
		}
		b, _ := json.Marshal(v)
		args[k] = b
	}
	return json.Marshal(args)
}
