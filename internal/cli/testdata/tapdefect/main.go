// Command tapdefect runs a stdio MCP server (its arguments) behind one
// planted defect, so that tests can check that wirelab tap check finds
// it and wirelab replay notices it. Everything else passes unchanged.
//
//	tapdefect -defect stdout-log|no-structured|answer-notification|reuse-ids COMMAND ARGS...
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
				if *defect == "no-structured" {
					line = dropStructured(line)
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

// dropStructured removes structuredContent from a result.
func dropStructured(line []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil || m["result"] == nil {
		return line
	}
	var result map[string]json.RawMessage
	if json.Unmarshal(m["result"], &result) != nil || result["structuredContent"] == nil {
		return line
	}
	delete(result, "structuredContent")
	m["result"], _ = json.Marshal(result)
	b, _ := json.Marshal(m)
	return b
}
