package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ownReportEvery is how often a student's wirelab that follows a
// classroom tells the instructor's dashboard that it is there: as often
// as a follower's page says where it is, well within the time the
// dashboard counts a follower connected (classroom.Connected).
const ownReportEvery = 10 * time.Second

// reportingOwn tells the instructor's playground, at once and then every
// ownReportEvery until ctx ends, that this student follows from their
// own wirelab: POST /classroom/seen {"own":true}, with the follower's
// cookie. The dashboard then lists the student as connected, on their
// own wirelab; which of its pages the student has open stays on the
// student's machine. A report that fails waits for the next: the relay
// already says on stderr when the instructor's playground is gone. The
// returned wait returns once the reports have stopped.
func reportingOwn(ctx context.Context, in *instructor) (wait func()) {
	// joinURL was made from a parsed URL (followTarget): it parses.
	u, _ := url.Parse(in.joinURL)
	u.Path = "/classroom/seen"
	seen := u.String()
	client := &http.Client{Timeout: joinTimeout}
	done := make(chan struct{})
	// This goroutine ends when ctx ends.
	go func() {
		defer close(done)
		tick := time.NewTicker(ownReportEvery)
		defer tick.Stop()
		for {
			_ = reportOwn(ctx, client, seen, in.header) // a failure waits for the next report
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() { <-done }
}

// reportOwn sends one report to the instructor's /classroom/seen.
func reportOwn(ctx context.Context, client *http.Client, seen string, header http.Header) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, seen, strings.NewReader(`{"own":true}`))
	if err != nil {
		return err
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("telling the classroom this wirelab follows: %w", err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("telling the classroom this wirelab follows: %s", resp.Status)
	}
	return nil
}
