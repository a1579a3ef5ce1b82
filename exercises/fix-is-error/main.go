// Command fix-is-error is a small MCP client (revision 2025-11-25) over
// stdio: it starts its server as a child process, calls one tool and
// prints what the tool said.
//
//	fix-is-error TOOL '{JSON}' SERVER [ARG...]
//	fix-is-error word_count '{"text":"read the wire"}' wirelab server mcp
//
// The text of each text block of the result goes on stdout, one per
// line, and the program exits with status 0. A tool that failed, a
// result with "isError": true, has its text on stderr and exit status 1;
// anything else that goes wrong (the server, the protocol) exits with
// status 2.
//
// It has one bug, the one README.md describes: find it and fix it.
// README.ru.md — то же, что README.md, по-русски.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
)

// The exit statuses.
const (
	exitToolError = 1 // the tool ran and failed
	exitFailure   = 2 // anything else
)

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: fix-is-error TOOL '{JSON}' SERVER [ARG...]")
		os.Exit(exitFailure)
	}
	os.Exit(run(os.Args[1], json.RawMessage(os.Args[2]), os.Args[3:], os.Stdout))
}

// result is a tools/call result, as far as this client reads it.
type result struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

// run calls tool with args on the server and returns the exit status.
func run(tool string, args json.RawMessage, command []string, out io.Writer) int {
	fail := func(step string, err error) int {
		fmt.Fprintf(os.Stderr, "fix-is-error: %s: %v\n", step, err)
		return exitFailure
	}
	if !json.Valid(args) {
		return fail("reading the arguments", errors.New("not JSON"))
	}
	s, err := start(command)
	if err != nil {
		return fail("starting the server", err)
	}
	defer s.stop()
	_, err = s.request("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "fix-is-error", "version": "1.0.0"},
	})
	if err != nil {
		return fail("initialize", err)
	}
	if err := s.notify("notifications/initialized"); err != nil {
		return fail("notifications/initialized", err)
	}
	raw, err := s.request("tools/call", map[string]any{"name": tool, "arguments": args})
	if err != nil {
		return fail("tools/call", err)
	}
	var res result
	if err := json.Unmarshal(raw, &res); err != nil {
		return fail("tools/call: reading the result", err)
	}
	for _, c := range res.Content {
		if c.Type == "text" {
			fmt.Fprintln(out, c.Text)
		}
	}
	return 0
}

// outgoing is a message the client writes: a request, or a notification
// when ID is nil (a notification has no "id" at all).
type outgoing struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int   `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// incoming is a message the server writes, as far as this client reads it.
type incoming struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"` // set for the server's own requests and notifications
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// session is the server process and the two ends of its pipes.
type session struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	nextID int
}

// start starts the server, its stderr shared with this program's.
func start(command []string) (*session, error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &session{cmd: cmd, stdin: stdin, stdout: bufio.NewReader(stdout), nextID: 1}, nil
}

// write sends one message: its JSON on one line.
func (s *session) write(m outgoing) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = s.stdin.Write(append(b, '\n'))
	return err
}

// notify sends a notification. Nobody answers it.
func (s *session) notify(method string) error {
	return s.write(outgoing{JSONRPC: "2.0", Method: method})
}

// request sends a request and returns the result of its answer: the
// line whose id is the request's. A bufio.Reader, unlike a Scanner, has
// no limit on the length of a line.
func (s *session) request(method string, params any) (json.RawMessage, error) {
	id := s.nextID
	s.nextID++
	if err := s.write(outgoing{JSONRPC: "2.0", ID: &id, Method: method, Params: params}); err != nil {
		return nil, err
	}
	for {
		line, err := s.stdout.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				return nil, errors.New("the server closed its stdout without answering")
			}
			return nil, err
		}
		var m incoming
		if json.Unmarshal(line, &m) != nil || m.Method != "" || string(m.ID) != strconv.Itoa(id) {
			continue // not the answer to this request
		}
		if m.Error != nil {
			return nil, fmt.Errorf("error %d: %s", m.Error.Code, m.Error.Message)
		}
		return m.Result, nil
	}
}

// stop closes the server's stdin, which tells it to exit, and waits for
// it.
func (s *session) stop() {
	s.stdin.Close()
	s.cmd.Wait()
}
