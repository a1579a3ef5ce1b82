package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
	"github.com/wirelab/wirelab/protocols/mcp"
)

// clientMCP is `wirelab client mcp`: connect to an MCP server, a child
// process over stdio (--cmd) or an endpoint over Streamable HTTP (--url),
// then list its tools or call one. It speaks 2026-07-28 and falls back to
// 2025-11-25 for a server that does not; --protocol-version pins one.
// With --conformance it is the client the official conformance suite
// drives (mcpclientconformance.go).
//
// stdout gets the answer: the tool list, or the call's result as JSON (a
// tool error's result too, for scripts). stderr gets everything else,
// one line each: whom we are talking to, the server's notifications, and
// what went wrong. When the server asks the user something, the question
// is asked on the terminal; without one, it is declined, unless
// --elicit-accept or --elicit-decline answers it.
// consentTimeout is client mcp's default --timeout when the OAuth flow
// may run: long enough for a person at the consent page.
const consentTimeout = 5 * time.Minute

func clientMCP(ctx context.Context, args []string, env Env) (int, error) {
	fs := flags("client mcp")
	cmdLine := fs.String("cmd", "", `MCP server command line, started as a child speaking stdio (default: this wirelab's own "server mcp")`)
	url := fs.String("url", "", "Streamable HTTP endpoint of an MCP server, such as http://127.0.0.1:8021/mcp (instead of --cmd)")
	token := fs.String("token", "", "bearer token to send; HTTP only")
	timeout := fs.Duration("timeout", 30*time.Second, "how long the whole session may take: start, handshake and call (with --url and no --token, 5m: the OAuth flow may wait for a person at the consent page)")
	progress := fs.Bool("progress", false, "ask the server for progress notifications, printed on stderr")
	list := fs.Bool("list", false, "list the tools, name and first line of description; the same as giving no TOOL")
	revision := fs.String("protocol-version", "", fmt.Sprintf("protocol revision to speak: %s (stateless) or a legacy one such as %s (a session); default: %s, falling back to %s for a server that does not speak it",
		mcp.ModernVersion, mcp.LegacyVersion, mcp.ModernVersion, mcp.LegacyVersion))
	elicitAccept := fs.String("elicit-accept", "", `answer the server's questions (elicitation) with this JSON object, such as '{"confirm":true}', without asking`)
	elicitDecline := fs.Bool("elicit-decline", false, "decline the server's questions (elicitation) without asking")
	clientID := fs.String("client-id", "", "OAuth: a client id registered beforehand with the server's authorization server (default: a client ID metadata document, see --client-metadata-url, else dynamic registration)")
	clientSecret := fs.String("client-secret", "", "OAuth: the secret of --client-id, for a confidential client")
	clientMetadataURL := fs.String("client-metadata-url", "", "OAuth: the https URL of this client's metadata document, used as its client_id where the authorization server supports client ID metadata documents")
	scope := fs.String("scope", "", `OAuth: the scopes to ask for, space-separated (default: those the server's 401 names, else its metadata's scopes_supported)`)
	openBrowser := fs.Bool("open", false, "OAuth: open the authorization URL in a browser (it is always printed on stderr)")
	wire := fs.Bool("wire", false, "print every HTTP exchange on stderr, the OAuth flow's included; tokens and secrets masked")
	conformance := fs.Bool("conformance", false, "be the client of the official MCP conformance suite: the server URL is the last argument, and MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and MCP_CONFORMANCE_CONTEXT say what to do")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	switch {
	case *cmdLine != "" && *url != "":
		return exitUsage, usageErrorf("--cmd and --url are two ways to reach a server; give one")
	case *token != "" && *url == "" && !*conformance:
		return exitUsage, usageErrorf("--token needs --url: a stdio server runs as you and takes no tokens")
	case *list && fs.NArg() > 0:
		return exitUsage, usageErrorf("--list takes no TOOL, got %q", fs.Arg(0))
	case *elicitAccept != "" && *elicitDecline:
		return exitUsage, usageErrorf("--elicit-accept and --elicit-decline are two answers; give one")
	case *conformance && (*cmdLine != "" || *url != "" || fs.NArg() != 1):
		return exitUsage, usageErrorf("--conformance takes the server URL as its one argument, and no --cmd or --url")
	case (*clientID != "" || *clientSecret != "" || *clientMetadataURL != "" || *scope != "" || *openBrowser || *wire) && *url == "" && !*conformance:
		return exitUsage, usageErrorf("--client-id, --client-secret, --client-metadata-url, --scope, --open and --wire are about HTTP: they need --url")
	case *clientSecret != "" && *clientID == "":
		return exitUsage, usageErrorf("--client-secret needs the --client-id it belongs to")
	case *token != "" && (*clientID != "" || *clientMetadataURL != "" || *scope != "" || *openBrowser):
		return exitUsage, usageErrorf("--token is a token given beforehand; the OAuth flags are for getting one: give one or the other")
	}
	var acceptWith map[string]any
	if *elicitAccept != "" {
		if err := json.Unmarshal([]byte(*elicitAccept), &acceptWith); err != nil {
			return exitUsage, usageErrorf("--elicit-accept: %q is not a JSON object: %v", *elicitAccept, err)
		}
	}
	var callArgs json.RawMessage
	if fs.NArg() > 0 && !*conformance {
		var err error
		if callArgs, err = toolArgs(fs.Args()[1:]); err != nil {
			return exitUsage, err
		}
	}
	var argv []string
	if *url == "" && !*conformance {
		var err error
		if argv, err = mcpServerCommand(*cmdLine, env); err != nil {
			return exitUsage, err
		}
	}

	if *url != "" && *token == "" && !flagGiven(fs, "timeout") {
		// A 401 starts the OAuth flow, which waits for a person to read
		// the consent page and press Allow: 30 s is too short for that.
		*timeout = consentTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	// Three writers share stderr: the child's stderr (copied by a
	// goroutine of os/exec), notifications (printed by the client's
	// reader) and this function.
	stderr := &lockedWriter{w: env.Stderr}
	opts := &mcp.ClientOptions{
		Info:            mcp.Implementation{Name: "wirelab", Version: implVersion()},
		ProtocolVersion: *revision,
		Token:           *token,
		Stderr:          stderr,
		OnNotification: func(method string, params json.RawMessage) {
			printNotification(stderr, method, params)
		},
		OnWarning: func(msg string) { fmt.Fprintf(stderr, "wirelab: warning: %s\n", msg) },
		Elicit:    elicitor(env, stderr, acceptWith, *elicitDecline),
	}
	auth := mcp.AuthOptions{ClientID: *clientID, ClientSecret: *clientSecret, ClientMetadataURL: *clientMetadataURL,
		Scope: *scope, ClientName: "wirelab " + implVersion(), Log: stderr}
	if *wire {
		auth.HTTP = &mcp.WireLog{Out: stderr}
	}
	if *conformance {
		return conformanceMCP(ctx, fs.Arg(0), opts, auth, env)
	}
	if *url != "" {
		if *token != "" {
			// A token given beforehand: no flow, only the wire if asked.
			if auth.HTTP != nil {
				opts.HTTPClient = &http.Client{Transport: auth.HTTP}
			}
		} else {
			// A server that answers 401 starts the OAuth flow; the person
			// approves in a browser, which comes back to this listener.
			redirect := &mcp.LoopbackRedirect{Out: stderr}
			if *openBrowser {
				redirect.Open = openURL
			}
			defer redirect.Close()
			auth.Redirect = redirect
			opts.HTTPClient = &http.Client{Transport: mcp.NewAuthorizer(auth)}
		}
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
	printConnected(stderr, cl)

	if fs.NArg() == 0 {
		return listMCPTools(ctx, cl, env)
	}
	res, err := cl.CallTool(ctx, fs.Arg(0), callArgs, *progress)
	return reportMCP(res, err, env)
}

// printConnected says whom the client talks to, and in which era.
func printConnected(w io.Writer, cl *mcp.Client) {
	init := cl.InitializeResult()
	era := "a session (legacy)"
	if cl.Modern() {
		era = "stateless (modern)"
	}
	fmt.Fprintf(w, "wirelab: connected to %s %s, protocol revision %s, %s\n",
		init.ServerInfo.Name, init.ServerInfo.Version, init.ProtocolVersion, era)
}

// elicitor answers the server's questions (elicitation/create): with
// the flags' answer if one was given; else on the terminal, field by
// field; else, with no one to ask, by declining.
func elicitor(env Env, stderr io.Writer, acceptWith map[string]any, decline bool) func(context.Context, mcp.ElicitParams) (mcp.ElicitResult, error) {
	return func(ctx context.Context, p mcp.ElicitParams) (mcp.ElicitResult, error) {
		fmt.Fprintf(stderr, "wirelab: the server asks: %s\n", p.Message)
		switch {
		case decline:
			return mcp.ElicitResult{Action: "decline"}, nil
		case acceptWith != nil:
			content, err := json.Marshal(acceptWith)
			return mcp.ElicitResult{Action: "accept", Content: content}, err
		case !isTerminal(env.Stdin):
			fmt.Fprintln(stderr, "wirelab: no terminal to ask on, so declined (answer with --elicit-accept JSON)")
			return mcp.ElicitResult{Action: "decline"}, nil
		}
		return askForm(env.Stdin, stderr, p.RequestedSchema)
	}
}

// isTerminal reports whether r is a terminal someone can type into.
// Being a character device is not enough: /dev/null is one too, and
// reading it gives only the end of input.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// askForm asks for each field of a requestedSchema on the terminal. An
// empty line takes the field's default, or leaves it out; the end of
// input cancels.
func askForm(in io.Reader, out io.Writer, requestedSchema json.RawMessage) (mcp.ElicitResult, error) {
	var schema struct {
		Properties map[string]struct {
			Type        string `json:"type"`
			Description string `json:"description"`
			Enum        []any  `json:"enum"`
			Default     any    `json:"default"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(requestedSchema, &schema); err != nil {
		return mcp.ElicitResult{}, fmt.Errorf("requestedSchema: %w", err)
	}
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	lines := bufio.NewScanner(in)
	content := make(map[string]any)
	for _, name := range names {
		f := schema.Properties[name]
		for {
			fmt.Fprintf(out, "  %s (%s", name, f.Type)
			if len(f.Enum) > 0 {
				fmt.Fprintf(out, ", one of %v", f.Enum)
			}
			if f.Default != nil {
				fmt.Fprintf(out, ", default %v", f.Default)
			}
			fmt.Fprintf(out, ") %s: ", f.Description)
			if !lines.Scan() {
				return mcp.ElicitResult{Action: "cancel"}, nil
			}
			text := strings.TrimSpace(lines.Text())
			if text == "" {
				if f.Default != nil {
					content[name] = f.Default
				}
				break
			}
			v, err := formValue(f.Type, text)
			if err == nil {
				content[name] = v
				break
			}
			fmt.Fprintf(out, "  %v\n", err)
		}
	}
	b, err := json.Marshal(content)
	return mcp.ElicitResult{Action: "accept", Content: b}, err
}

// formValue reads what the user typed as a value of a form field's type.
func formValue(typ, text string) (any, error) {
	switch typ {
	case "integer":
		return strconv.ParseInt(text, 10, 64)
	case "number":
		return strconv.ParseFloat(text, 64)
	case "boolean":
		switch strings.ToLower(text) {
		case "y", "yes", "true":
			return true, nil
		case "n", "no", "false":
			return false, nil
		}
		return nil, fmt.Errorf("yes or no, please")
	}
	return text, nil
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

// openURL opens url in the desktop's browser.
func openURL(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	// Reaps the opener, which exits as soon as it has handed the URL on.
	go cmd.Wait()
	return nil
}
