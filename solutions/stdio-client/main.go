// Command stdio-client calls tools of a stdio tool server, many calls on
// one server process:
//
//	stdio-client SERVER [ARG...] < calls
//
// Each line of stdin is one call, the tool's name and its arguments as
// JSON: word_count {"text":"read the wire"}. The program starts SERVER
// once, writes every call to it as one request line, reads the answers,
// and prints each call's result on its own line of stdout, in the order
// of the calls. Then it closes the server's stdin and waits for the
// server to exit.
//
// Three things make it sturdy. Answers are matched to calls by id, since
// a server may answer in any order. Lines are read with bufio.Reader,
// which has no limit of its own, where bufio.Scanner stops at 64 KiB. And
// the server is seen out: its stdin closed, its exit waited for, so that
// no process is left behind.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// maxLine is the longest answer read: 1 MiB, the most a wirelab stdio
// server accepts in a request, and so the most a client should take.
const maxLine = 1 << 20

// request is one line to the server. The tags are the wire's keys:
// without them encoding/json would write "ID", "Name" and "Args".
type request struct {
	ID   int             `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// response is one line from the server: the id of the request it
// answers, and a result or an error.
type response struct {
	ID     *int            `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: stdio-client SERVER [ARG...] < calls")
		os.Exit(2)
	}
	calls, err := readCalls(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stdio-client:", err)
		os.Exit(2)
	}
	results, err := run(os.Args[1], os.Args[2:], calls)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stdio-client:", err)
		os.Exit(1)
	}
	for _, r := range results {
		fmt.Printf("%s\n", r)
	}
}

// readCalls reads the calls, one a line: a tool's name, a space, and
// its arguments as a JSON object.
func readCalls(r io.Reader) ([]request, error) {
	in := bufio.NewReader(r)
	var calls []request
	for {
		line, err := in.ReadString('\n')
		if line = strings.TrimSpace(line); line != "" {
			name, args, _ := strings.Cut(line, " ")
			if !json.Valid([]byte(args)) {
				return nil, fmt.Errorf("call %d: the arguments of %s are not JSON: %s", len(calls)+1, name, args)
			}
			calls = append(calls, request{ID: len(calls) + 1, Name: name, Args: json.RawMessage(args)})
		}
		if errors.Is(err, io.EOF) {
			return calls, nil // the last line may have no newline
		}
		if err != nil {
			return nil, err
		}
	}
}

// run starts the server, makes every call on it, and returns the results
// in the order of the calls.
func run(server string, args []string, calls []request) ([]json.RawMessage, error) {
	cmd := exec.Command(server, args...)
	cmd.Stderr = os.Stderr // the server's logs, which must go somewhere
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the server: %w", err)
	}

	// Write every call at once, each as one line, while the answers are
	// read below: the server may answer the first before reading the
	// last. This goroutine ends when every call is written, or when a
	// write fails because the server has gone.
	go func() {
		enc := json.NewEncoder(stdin) // Encode ends each message with "\n"
		for _, c := range calls {
			if err := enc.Encode(c); err != nil {
				return
			}
		}
	}()

	results, readErr := readAnswers(bufio.NewReader(stdout), len(calls))

	// End of input tells the server we are done; it exits, and Wait
	// collects it, so that it does not linger as a zombie or an orphan.
	stdin.Close()
	waitErr := cmd.Wait()
	if readErr != nil {
		return nil, readErr
	}
	if waitErr != nil {
		return nil, fmt.Errorf("the server: %w", waitErr)
	}
	return results, nil
}

// readAnswers reads n answers, in whatever order they come, and puts
// each result in the place of the call with its id.
func readAnswers(out *bufio.Reader, n int) ([]json.RawMessage, error) {
	results := make([]json.RawMessage, n)
	for answered := 0; answered < n; answered++ {
		line, err := out.ReadBytes('\n')
		if len(line) > maxLine {
			return nil, fmt.Errorf("an answer of %d bytes, over the limit of %d", len(line), maxLine)
		}
		if err != nil {
			return nil, fmt.Errorf("reading answer %d of %d: %w", answered+1, n, err)
		}
		var resp response
		if err := json.Unmarshal(line, &resp); err != nil {
			return nil, fmt.Errorf("an answer that is not JSON (logs belong on stderr): %.80s", line)
		}
		if resp.ID == nil || *resp.ID < 1 || *resp.ID > n || results[*resp.ID-1] != nil {
			return nil, fmt.Errorf("an answer to no call of ours: %.80s", line)
		}
		if resp.Error != nil {
			return nil, fmt.Errorf("call %d: %s: %s", *resp.ID, resp.Error.Code, resp.Error.Message)
		}
		results[*resp.ID-1] = resp.Result
	}
	return results, nil
}
