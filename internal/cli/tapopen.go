package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/internal/tapcheck"
	"github.com/wirelab/wirelab/playground"
)

// openTimeout bounds the upload of a recording to the playground: at
// most 16 MiB over loopback, which takes well under a second; a
// playground that takes longer has stopped answering.
const openTimeout = 30 * time.Second

// defaultPlayground is where wirelab serve listens unless told otherwise.
const defaultPlayground = "http://127.0.0.1:8018"

// tapOpenCmd is `wirelab tap open FILE [--playground URL]`: a recording
// opened in a running playground, read only, as the session of a tap
// that has ended; it prints the address of the console that shows it.
// The file is read here first, so that a malformed one is named by its
// line before anything is sent.
func tapOpenCmd(ctx context.Context, args []string, env Env) (int, error) {
	fs := flags("tap open")
	base := fs.String("playground", defaultPlayground, "the running playground to open the recording in")
	file, rest := positional(args)
	if err := parse(fs, rest); err != nil {
		return exitUsage, err
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if file == "" || fs.NArg() > 0 {
		return exitUsage, usageErrorf("tap open takes one recording")
	}
	u, err := url.Parse(strings.TrimSuffix(*base, "/"))
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return exitUsage, usageErrorf("tap open: --playground must be http://HOST:PORT, not %q", *base)
	}
	data, err := readToOpen(file)
	if err != nil {
		return exitFailure, err
	}
	events, err := tap.Read(bytes.NewReader(data))
	if err != nil {
		return exitFailure, fmt.Errorf("%s: %w", file, err)
	}

	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	target := u.String() + "/taps/open?" + url.Values{"name": {filepath.Base(file)}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(data))
	if err != nil {
		return exitFailure, err
	}
	// No Origin: this is a program, not a page, and the playground
	// refuses pages of other sites only.
	req.Header.Set("Content-Type", "application/jsonl")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return exitFailure, fmt.Errorf("tap open: no playground answers at %s (%v); start one with wirelab serve", u, err)
	}
	defer resp.Body.Close()
	var answer struct {
		ID, Console, Error string
	}
	derr := json.NewDecoder(resp.Body).Decode(&answer)
	switch {
	case resp.StatusCode != http.StatusCreated && answer.Error != "":
		return exitFailure, fmt.Errorf("tap open: the playground refused %s: %s (%s)", file, answer.Error, resp.Status)
	case resp.StatusCode != http.StatusCreated || derr != nil || answer.Console == "":
		return exitFailure, fmt.Errorf("tap open: %s answered %s, not a playground's answer (is it a wirelab playground?)", u, resp.Status)
	}
	// stdout has the address alone, for a script to open; what the
	// check found goes to stderr, as wirelab tap prints it.
	fmt.Fprintln(env.Stdout, u.String()+answer.Console)
	fmt.Fprintf(env.Stderr, "wirelab tap open: %s is %s, read only; %s\n", file, answer.ID, summaryLine(tapcheck.Check(events)))
	return exitOK, nil
}

// readToOpen reads a recording to send to the playground: a regular file
// (tap.OpenFile) no larger than the playground opens, so that neither a
// huge file nor one without end is read in vain.
func readToOpen(path string) ([]byte, error) {
	f, err := tap.OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, playground.MaxRecordingFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > playground.MaxRecordingFile {
		return nil, fmt.Errorf("%s is larger than %d MiB, the most the playground opens; `wirelab tap check %s` reads it whole", path, playground.MaxRecordingFile>>20, path)
	}
	return data, nil
}
