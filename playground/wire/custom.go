package wire

import (
	"context"
	"errors"
	"net"
	"strings"
)

// Custom targets are the learner's own servers: a command line to start
// (custom-stdio), an http:// or https:// URL (custom-http), or a gRPC server's
// host:port (custom-grpc), given in the command's "to". They count
// against the same limits as the playground's own targets.

// maxTo bounds a custom target's "to": a command line or an address is
// short, and every event of the target echoes it.
const maxTo = 4 << 10

// isCustom reports whether a target is one of the learner's own servers.
func isCustom(target string) bool { return strings.HasPrefix(target, "custom-") }

// handleCustom serves one command for a custom target.
func (s *session) handleCustom(c Command) {
	if !s.local {
		// Starting a program, or connecting wherever the page says, is for
		// the learner at this machine only.
		s.refuse(c.ID, s.say(noteCustomLocalOnly, c.Target))
		return
	}
	if strings.TrimSpace(c.To) == "" {
		s.refuse(c.ID, s.say(noteCustomNeedsTo, c.Target, customExample(c.Target)))
		return
	}
	if len(c.To) > maxTo {
		s.refuse(c.ID, s.say(noteToTooLong, len(c.To), maxTo))
		return
	}
	switch c.Op {
	case "send":
	case "restart":
		if c.Target == "custom-grpc" {
			s.restartCustomGRPC(c)
			return
		}
		if c.Target != "custom-stdio" {
			s.refuse(c.ID, s.say(noteCustomNoRestart, c.Target))
			return
		}
		s.restartChild(childKey{target: c.Target, to: c.To})
		return
	default:
		s.refuse(c.ID, s.say(noteUnknownOp, c.Op))
		return
	}
	switch c.Target {
	case "custom-stdio":
		s.sendLine(c)
	case "custom-http":
		base, err := customURL(c.To)
		if err != nil {
			s.refuse(c.ID, s.explain(err))
			return
		}
		s.exchange(c, func(ctx context.Context) error { return s.exchangeHTTP(ctx, c, base) })
	case "custom-grpc":
		s.sendCustomGRPC(c) // custom_grpc.go
	default:
		s.refuse(c.ID, s.say(noteUnknownTarget, c.Target, "custom-stdio, custom-http, custom-grpc"))
	}
}

// customExample says what a custom target's "to" looks like.
func customExample(target string) *notice {
	switch target {
	case "custom-stdio":
		return say(noteExampleStdio)
	case "custom-http":
		return say(noteExampleHTTP)
	case "custom-grpc":
		return say(noteExampleGRPC)
	}
	return say(noteExampleOther)
}

// customURL checks the URL of a custom-http target (custom_http.go),
// and returns it without the options after it.
func customURL(to string) (string, error) {
	t, err := parseHTTPTo(to)
	if err != nil {
		return "", err
	}
	return t.url.String(), nil
}

// customAddr checks the host:port of a custom-grpc target.
func customAddr(to string) (string, error) {
	to = strings.TrimSpace(to)
	host, port, err := net.SplitHostPort(to)
	if err != nil || host == "" || port == "" || strings.Contains(to, "/") {
		return "", say(noteGRPCAddr, customExample("custom-grpc"), to)
	}
	return to, nil
}

// startError says that a custom command line did not start, naming it.
func startError(to string, err error) error {
	if inner := errors.Unwrap(err); inner != nil {
		err = inner // stdio.StartProcess's own wrapping repeats the program's name
	}
	return say(noteCouldNotStart, to, err)
}

// splitCommandLine splits a command line into words the way a POSIX
// shell does (blanks separate words; 'single quotes' keep everything
// literally; "double quotes" keep everything but \", \\, \$ and \`;
// outside quotes, a backslash keeps the next character) and does
// nothing else a shell would: no shell runs, so variables, ~, globs,
// pipes and redirections reach the program as they are.
func splitCommandLine(line string) ([]string, error) {
	var (
		argv   []string
		word   strings.Builder
		inWord bool // a word has begun, possibly empty: ''
	)
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t', '\n', '\r':
			if inWord {
				argv = append(argv, word.String())
				word.Reset()
				inWord = false
			}
		case '\\':
			if i+1 == len(line) {
				return nil, say(noteTrailingBackslash, line)
			}
			i++
			if line[i] == '\n' {
				// Backslash-newline joins two lines and is no part of
				// any word: "a \\\n  b" is two words, as in a shell.
				continue
			}
			word.WriteByte(line[i])
			inWord = true
		case '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, say(noteUnbalancedSingle, i, line)
			}
			word.WriteString(line[i+1 : i+1+end])
			i += 1 + end
			inWord = true
		case '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && strings.IndexByte("\"\\$`\n", line[j+1]) >= 0 {
					j++
					if line[j] == '\n' {
						continue
					}
				}
				word.WriteByte(line[j])
			}
			if j == len(line) {
				return nil, say(noteUnbalancedDouble, i, line)
			}
			i = j
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		argv = append(argv, word.String())
	}
	if len(argv) == 0 {
		return nil, say(noteEmptyCommand)
	}
	return argv, nil
}
