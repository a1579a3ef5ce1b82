package tap

import (
	"net/http"
	"strings"
	"testing"
)

// TestRecordBoundsHeaders: the in-memory log's byte bound counts what a
// peer put in headers and URLs, not only bodies, so a server that
// answers with megabytes of headers cannot grow it without end.
func TestRecordBoundsHeaders(t *testing.T) {
	const maxBytes = 10 << 10
	rec := NewRecorder(&RecorderOptions{MaxBytes: maxBytes})
	big := strings.Repeat("h", 3<<10)
	for range 100 {
		rec.Add(Event{Kind: KindHTTPResponse, Header: http.Header{"X-Big": {big}}})
		rec.Add(Event{Kind: KindHTTPRequest, URL: "/" + big})
	}
	events := rec.Events()
	held := 0
	for _, e := range events {
		held += len(e.URL) + len(e.Header.Get("X-Big"))
	}
	if held > maxBytes || len(events) > 4 {
		t.Errorf("the log holds %d events, %d bytes of headers and URLs; the bound is %d bytes", len(events), held, maxBytes)
	}
	if len(events) == 0 || events[len(events)-1].Seq != 200 {
		t.Errorf("the newest event is not kept: %d events", len(events))
	}
}
