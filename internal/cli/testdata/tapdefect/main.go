// Command tapdefect runs a stdio MCP server (its arguments) behind one
// planted defect, so that tests can check that wirelab tap check finds
// it and wirelab replay notices it. Everything else passes unchanged.
//
//	tapdefect -defect stdout-log|no-structured|answer-notification|reuse-ids|no-input-schema|untyped-content COMMAND ARGS...
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
)

func main() {
	defect := flag.String("defect", "", "the defect to plant")
	flag.Parse()
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var mu sync.Mutex // guards writes to stdout
	write := func(b []byte) {
		mu.Lock()
		os.Stdout.Write(append(b, '\n'))
		mu.Unlock()
	}
	if *defect == "stdout-log" {
		write([]byte("server starting, logging to stdout"))
	}
	done := make(chan struct{})
	go func() { // the server's answers, to the host
		defer close(done)
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				line = bytes.TrimSuffix(line, []byte("\n"))
				switch *defect {
				case "no-structured":
					line = dropStructured(line)
				case "no-input-schema":
					line = dropInputSchema(line)
				case "untyped-content":
					line = untypeContent(line)
				}
				write(line)
			}
			if err != nil {
				return
			}
		}
	}()
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			json.Unmarshal(line, &m)
			switch {
			case *defect == "answer-notification" && m.Method != "" && m.ID == nil:
				write([]byte(`{"jsonrpc":"2.0","id":null,"result":{}}`))
			case *defect == "reuse-ids" && m.Method == "tools/call":
				// Two requests of the server's own with one id.
				write([]byte(`{"jsonrpc":"2.0","id":"s1","method":"ping"}`))
				write([]byte(`{"jsonrpc":"2.0","id":"s1","method":"ping"}`))
			case *defect == "reuse-ids" && m.Method == "" && string(m.ID) == `"s1"`:
				continue // the host's answers to them are ours, not the server's
			}
			in.Write(line)
		}
		if err == io.EOF || err != nil {
			break
		}
	}
	in.Close()
	<-done
	cmd.Wait()
	os.Exit(cmd.ProcessState.ExitCode())
}

// editResult rewrites the result of a response with edit, which
// reports whether it changed anything; other lines pass as they are.
func editResult(line []byte, edit func(result map[string]any) bool) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil || m["result"] == nil {
		return line
	}
	var result map[string]any
	if json.Unmarshal(m["result"], &result) != nil || !edit(result) {
		return line
	}
	m["result"], _ = json.Marshal(result)
	b, _ := json.Marshal(m)
	return b
}

// dropStructured removes structuredContent from a result.
func dropStructured(line []byte) []byte {
	return editResult(line, func(result map[string]any) bool {
		_, ok := result["structuredContent"]
		delete(result, "structuredContent")
		return ok
	})
}

// dropInputSchema removes inputSchema from the first tool a tools/list
// result lists: a schema defect (every tool has one).
func dropInputSchema(line []byte) []byte {
	return editResult(line, func(result map[string]any) bool {
		tools, _ := result["tools"].([]any)
		if len(tools) == 0 {
			return false
		}
		tool, _ := tools[0].(map[string]any)
		delete(tool, "inputSchema")
		return tool != nil
	})
}

// untypeContent removes type from every content block of a result: a
// schema defect (a block is known by its type).
func untypeContent(line []byte) []byte {
	return editResult(line, func(result map[string]any) bool {
		content, _ := result["content"].([]any)
		for _, c := range content {
			if block, ok := c.(map[string]any); ok {
				delete(block, "type")
			}
		}
		return len(content) > 0
	})
}
