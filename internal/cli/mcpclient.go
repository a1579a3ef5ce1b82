package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/mcp"
)

// clientMCP is `wirelab client mcp`: open an MCP session with a server,
// a child process over stdio (--cmd) or an endpoint over Streamable HTTP
// (--url), then list its tools or call one.
//
// stdout gets the answer: the tool list, or the call's result as JSON (a
// tool error's result too, for scripts). stderr gets everything else,
// one line each: whom we are talking to, the server's notifications, and
// what went wrong.
func clientMCP(ctx context.Context, args []string, env Env) (int, error) {
	fs := flags("client mcp")
	cmdLine := fs.String("cmd", "", `MCP server command line, started as a child speaking stdio (default: this wirelab's own "server mcp")`)
	url := fs.String("url", "", "Streamable HTTP endpoint of an MCP server, such as http://127.0.0.1:8021/mcp (instead of --cmd)")
	token := fs.String("token", "", "bearer token to send; HTTP only")
	timeout := fs.Duration("timeout", 30*time.Second, "how long the whole session may take: start, handshake and call")
	progress := fs.Bool("progress", false, "ask the server for progress notifications, printed on stderr")
	list := fs.Bool("list", false, "list the tools, name and first line of description; the same as giving no TOOL")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	switch {
	case *cmdLine != "" && *url != "":
		return exitUsage, usageErrorf("--cmd and --url are two ways to reach a server; give one")
	case *token != "" && *url == "":
		return exitUsage, usageErrorf("--token needs --url: a stdio server runs as you and takes no tokens")
	case *list && fs.NArg() > 0:
		return exitUsage, usageErrorf("--list takes no TOOL, got %q", fs.Arg(0))
	}
	var callArgs json.RawMessage
	if fs.NArg() > 0 {
		var err error
		if callArgs, err = toolArgs(fs.Args()[1:]); err != nil {
			return exitUsage, err
		}
	}
	var argv []string
	if *url == "" {
		var err error
		if argv, err = mcpServerCommand(*cmdLine, env); err != nil {
			return exitUsage, err
		}
	}

	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	// Three writers share stderr: the child's stderr (copied by a
	// goroutine of os/exec), notifications (printed by the client's
	// reader) and this function.
	stderr := &lockedWriter{w: env.Stderr}
	opts := &mcp.ClientOptions{
		Info:   mcp.Implementation{Name: "wirelab", Version: implVersion()},
		Token:  *token,
		Stderr: stderr,
		OnNotification: func(method string, params json.RawMessage) {
			printNotification(stderr, method, params)
		},
	}
	var cl *mcp.Client
	var err error
	if *url != "" {
		cl, err = mcp.ConnectHTTP(ctx, *url, opts)
	} else {
		cl, err = mcp.Connect(ctx, argv, opts)
	}
	if err != nil {
		return exitProtocol, err
	}
	defer func() {
		if err := cl.Close(); err != nil {
			fmt.Fprintf(stderr, "wirelab: %v\n", err)
		}
	}()
	init := cl.InitializeResult()
	fmt.Fprintf(stderr, "wirelab: connected to %s %s, protocol revision %s\n",
		init.ServerInfo.Name, init.ServerInfo.Version, init.ProtocolVersion)

	if fs.NArg() == 0 {
		return listMCPTools(ctx, cl, env)
	}
	res, err := cl.CallTool(ctx, fs.Arg(0), callArgs, *progress)
	return reportMCP(res, err, env)
}

// lockedWriter makes one writer safe for several goroutines, one whole
// write at a time.
type lockedWriter struct {
	mu sync.Mutex // guards w
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// mcpServerCommand is serverCommand, with this binary's MCP server as
// the default.
func mcpServerCommand(cmdLine string, env Env) ([]string, error) {
	if strings.TrimSpace(cmdLine) != "" {
		return serverCommand(cmdLine, env)
	}
	if env.Executable == "" {
		return nil, usageErrorf("client mcp needs --cmd or --url")
	}
	return []string{env.Executable, "server", "mcp"}, nil
}

// listMCPTools prints one line per tool: its name, and the first line of
// its description.
func listMCPTools(ctx context.Context, cl *mcp.Client, env Env) (int, error) {
	list, err := cl.ListTools(ctx)
	if err != nil {
		return exitProtocol, err
	}
	width := 0
	for _, t := range list {
		width = max(width, len(t.Name))
	}
	for _, t := range list {
		first, _, _ := strings.Cut(t.Description, "\n")
		fmt.Fprintf(env.Stdout, "%-*s  %s\n", width, t.Name, first)
	}
	return exitOK, nil
}

// reportMCP prints a call's outcome and picks the exit code: 0 for a
// result, 1 for a tool error, 2 for a protocol error or no answer.
func reportMCP(res *mcp.ToolResult, err error, env Env) (int, error) {
	var toolErr *mcp.ToolError
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		b, _ := json.Marshal(res)
		fmt.Fprintf(env.Stdout, "%s\n", b)
		return exitOK, nil
	case errors.As(err, &toolErr):
		fmt.Fprintf(env.Stdout, "%s\n", toolErr.Raw)
		return exitToolError, err
	case errors.As(err, &rpcErr):
		b, _ := json.Marshal(struct {
			Error *jsonrpc.Error `json:"error"`
		}{rpcErr})
		fmt.Fprintf(env.Stdout, "%s\n", b)
		return exitProtocol, fmt.Errorf("protocol error %d: %s", rpcErr.Code, rpcErr.Message)
	default:
		return exitProtocol, err
	}
}

// printNotification prints a notification from the server on one line.
// Progress and log messages are spelled out; anything else is shown as
// it came.
func printNotification(w io.Writer, method string, params json.RawMessage) {
	switch method {
	case "notifications/progress":
		var p mcp.ProgressParams
		if json.Unmarshal(params, &p) == nil {
			total := "" // "total" is optional: unknown
			if p.Total != 0 {
				total = fmt.Sprintf("/%g", p.Total)
			}
			fmt.Fprintf(w, "wirelab: progress %g%s: %s\n", p.Progress, total, p.Message)
			return
		}
	case "notifications/message":
		var p struct {
			Level  string          `json:"level"`
			Logger string          `json:"logger"`
			Data   json.RawMessage `json:"data"` // any JSON; often a string
		}
		if json.Unmarshal(params, &p) == nil {
			data := string(p.Data)
			var s string
			if json.Unmarshal(p.Data, &s) == nil {
				data = s
			}
			if p.Logger != "" {
				p.Level += " " + p.Logger
			}
			fmt.Fprintf(w, "wirelab: log %s: %s\n", p.Level, data)
			return
		}
	}
	fmt.Fprintf(w, "wirelab: notification %s %s\n", method, params)
}
