// Command fix-initialized is a small MCP client (revision 2025-11-25)
// over stdio: it starts its server as a child process, opens the session
// and prints the names of the server's tools, one per line.
//
//	fix-initialized SERVER [ARG...]
//	fix-initialized wirelab server mcp
//
// It exits with status 0 when the tools were listed, 1 for anything else.
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

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fix-initialized SERVER [ARG...]")
		os.Exit(1)
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fix-initialized:", err)
		os.Exit(1)
	}
}

// run opens a session with the server, lists its tools and prints their
// names on out.
func run(command []string, out io.Writer) error {
	s, err := start(command)
	if err != nil {
		return fmt.Errorf("starting the server: %w", err)
	}
	defer s.stop()
	_, err = s.request("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "fix-initialized", "version": "1.0.0"},
	})
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	raw, err := s.request("tools/list", map[string]any{})
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return fmt.Errorf("tools/list: reading the result: %w", err)
	}
	for _, t := range list.Tools {
		fmt.Fprintln(out, t.Name)
	}
	return nil
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
