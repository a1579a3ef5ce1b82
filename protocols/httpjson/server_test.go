package httpjson

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

func TestStatusFor(t *testing.T) {
	tests := []struct {
		code string
		want int
	}{
		{string(tools.CodeToolFailed), http.StatusOK},
		{stdio.CodeParseError, http.StatusBadRequest},
		{stdio.CodeInvalidRequest, http.StatusBadRequest},
		{string(tools.CodeIncompatibleVersion), http.StatusBadRequest},
		{CodeUnauthorized, http.StatusUnauthorized},
		{string(tools.CodeForbidden), http.StatusForbidden},
		{CodeForbiddenOrigin, http.StatusForbidden},
		{string(tools.CodeUnknownTool), http.StatusNotFound},
		{CodeNotFound, http.StatusNotFound},
		{CodeMethodNotAllowed, http.StatusMethodNotAllowed},
		{stdio.CodeTooLarge, http.StatusRequestEntityTooLarge},
		{CodeUnsupportedMediaType, http.StatusUnsupportedMediaType},
		{CodeMisdirectedRequest, http.StatusMisdirectedRequest},
		{CodeRequestTimeout, http.StatusRequestTimeout},
		{string(tools.CodeInvalidArguments), http.StatusUnprocessableEntity},
		{stdio.CodeCanceled, http.StatusServiceUnavailable},
		{stdio.CodeInternal, http.StatusInternalServerError},
		{"something_new", http.StatusInternalServerError},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			if got := StatusFor(tt.code); got != tt.want {
				t.Errorf("StatusFor(%q) = %d, want %d", tt.code, got, tt.want)
			}
		})
	}
}

func TestCheckJSON(t *testing.T) {
	tests := []struct {
		contentType string
		ok          bool
	}{
		{"application/json", true},
		{"application/json; charset=utf-8", true},
		{"Application/JSON; charset=UTF-8", true},
		{"application/json; charset=latin1", false},
		{"", false},
		{"text/plain", false},
		{"application/x-www-form-urlencoded", false},
		{"multipart/form-data; boundary=x", false},
		{"application/json;;", false},
	}
	for _, tt := range tests {
		t.Run(tt.contentType, func(t *testing.T) {
			if e := checkJSON(tt.contentType); (e == nil) != tt.ok {
				t.Errorf("checkJSON(%q) = %v, want ok=%v", tt.contentType, e, tt.ok)
			}
		})
	}
}

// testLogger logs text lines without the parts that change between runs.
func testLogger(buf io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			switch a.Key {
			case slog.TimeKey, "took", "remote":
				return slog.Attr{}
			}
			return a
		},
	}))
}

func TestServerLogsOneLinePerRequest(t *testing.T) {
	var buf bytes.Buffer
	srv := NewServer(testCatalogue(), &ServerOptions{Tokens: mustTokens(t, "s3cret"), Log: testLogger(&buf)})
	for _, r := range []*http.Request{
		execRequest(t, context.Background(), "s3cret", `{"name":"word_count","args":{"text":"hi"}}`),
		execRequest(t, context.Background(), "guessed", `{"name":"word_count","args":{"text":"hi"}}`),
		httptest.NewRequest(http.MethodGet, "/nope", nil),
	} {
		srv.ServeHTTP(httptest.NewRecorder(), r)
	}
	want := strings.Join([]string{
		`level=INFO msg=request method=POST path=/execute status=200`,
		`level=INFO msg=request method=POST path=/execute status=401 code=unauthorized`,
		`level=INFO msg=request method=GET path=/nope status=404 code=not_found`,
	}, "\n") + "\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("log mismatch (-want +got):\n%s", diff)
	}
	if strings.Contains(buf.String(), "s3cret") {
		t.Error("the log shows a token")
	}
}

// TestClientGone: when the caller has gone, the tool is stopped and
// nothing is written; the log says so.
func TestClientGone(t *testing.T) {
	var buf bytes.Buffer
	srv := NewServer(testCatalogue(), &ServerOptions{Log: testLogger(&buf)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, execRequest(t, ctx, "", `{"name":"deploy_service","args":{"service":"api","env":"staging"}}`))
	if w.Body.Len() != 0 || len(w.Header()) != 0 {
		t.Errorf("wrote %v %q to a client that has gone", w.Header(), w.Body)
	}
	want := "level=INFO msg=\"client went away before the answer; nothing sent\" method=POST path=/execute status=0 code=canceled\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("log mismatch (-want +got):\n%s", diff)
	}
}

func TestNilOptions(t *testing.T) {
	w := httptest.NewRecorder()
	NewServer(testCatalogue(), nil).ServeHTTP(w, execRequest(t, context.Background(), "", `{"name":"word_count","args":{"text":"no options"}}`))
	if diff := cmp.Diff("{\"result\":{\"words\":2,\"chars\":10}}\n", w.Body.String()); w.Code != http.StatusOK || diff != "" {
		t.Errorf("status %d, body mismatch (-want +got):\n%s", w.Code, diff)
	}
}

func execRequest(t *testing.T, ctx context.Context, token, body string) *http.Request {
	t.Helper()
	r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/execute", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return r
}
