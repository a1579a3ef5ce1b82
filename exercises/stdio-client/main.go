// Command stdio-client calls tools of a stdio tool server:
//
//	stdio-client SERVER [ARG...] < calls
//
// Each line of stdin is one call, the tool's name and its arguments as
// JSON: word_count {"text":"read the wire"}. The program prints each
// call's result on its own line of stdout, in the order of the calls.
//
// This version works, call by call: it starts a new server for every
// call. README.md says what the grader asks for instead: one server for
// every call, answers matched by id, long lines, and a clean stop.
// README.ru.md — то же, что README.md, по-русски.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

type request struct {
	ID   int             `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

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
	in := bufio.NewScanner(os.Stdin)
	id := 0
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		id++
		name, args, _ := strings.Cut(line, " ")
		result, err := call(os.Args[1], os.Args[2:], request{ID: id, Name: name, Args: json.RawMessage(args)})
		if err != nil {
			fmt.Fprintln(os.Stderr, "stdio-client:", err)
			os.Exit(1)
		}
		fmt.Printf("%s\n", result)
	}
}

// call starts the server, makes one call, and stops the server.
func call(server string, args []string, req request) (json.RawMessage, error) {
	cmd := exec.Command(server, args...)
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
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	if err := json.NewEncoder(stdin).Encode(req); err != nil {
		return nil, err
	}
	out := bufio.NewScanner(stdout)
	if !out.Scan() {
		return nil, fmt.Errorf("no answer from the server: %v", out.Err())
	}
	var resp response
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
		return nil, fmt.Errorf("an answer that is not JSON: %.80s", out.Text())
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("the server: %w", err)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s: %s", resp.Error.Code, resp.Error.Message)
	}
	return resp.Result, nil
}
