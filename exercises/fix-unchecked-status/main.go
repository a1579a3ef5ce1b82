// Command fix-unchecked-status calls the word_count tool of an HTTP tool
// server and prints the count:
//
//	fix-unchecked-status --url http://127.0.0.1:8019/execute TEXT
//
// prints "3 words, 13 chars" and exits 0, or says on stderr what went
// wrong and exits 1.
//
// It has one bug, the one README.md describes: find it and fix it.
// README.ru.md — то же, что README.md, по-русски.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// maxAnswer is the most of an answer read: far more than a count.
const maxAnswer = 1 << 20

func main() {
	url := flag.String("url", "http://127.0.0.1:8019/execute", "the server's /execute URL")
	flag.Parse()
	text := strings.Join(flag.Args(), " ")
	if err := run(*url, text); err != nil {
		fmt.Fprintln(os.Stderr, "fix-unchecked-status:", err)
		os.Exit(1)
	}
}

func run(url, text string) error {
	body, err := json.Marshal(map[string]any{"name": "word_count", "args": map[string]string{"text": text}})
	if err != nil {
		return err
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("calling the server: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("reading the answer: %w", err)
	}
	var answer struct {
		Result struct {
			Words int `json:"words"`
			Chars int `json:"chars"`
		} `json:"result"`
	}
	if err := json.Unmarshal(data, &answer); err != nil {
		return fmt.Errorf("the answer is not JSON (%v): %.80s", err, data)
	}
	fmt.Printf("%d words, %d chars\n", answer.Result.Words, answer.Result.Chars)
	return nil
}
