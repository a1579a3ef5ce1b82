package mcp

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// maxWireBody is how much of a body WireLog prints; the rest is counted.
const maxWireBody = 4096

// WireLog is an http.RoundTripper that prints every exchange it carries
// to Out, request lines with ">" and response lines with "<", and passes
// it on to Next (nil: http.DefaultTransport). Tokens, codes and secrets
// are masked to their first characters and length: a log must never be
// enough to use them. An event stream's body is not printed, since it
// may never end.
type WireLog struct {
	Out  io.Writer
	Next http.RoundTripper

	mu sync.Mutex // guards Out: one exchange prints as one block
}

// RoundTrip prints req, sends it, and prints the response.
func (w *WireLog) RoundTrip(req *http.Request) (*http.Response, error) {
	next := w.Next
	if next == nil {
		next = http.DefaultTransport
	}
	var b strings.Builder
	fmt.Fprintf(&b, "> %s %s\n", req.Method, maskURL(req.URL))
	writeHeaders(&b, "> ", req.Header)
	if req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(io.LimitReader(body, maxAuthAnswer))
			body.Close()
			writeBody(&b, "> ", req.Header.Get("Content-Type"), data, len(data))
		}
	}
	resp, err := next.RoundTrip(req)
	if err != nil {
		fmt.Fprintf(&b, "< (no answer: %v)\n", err)
		w.print(b.String())
		return nil, err
	}
	fmt.Fprintf(&b, "< %s %s\n", resp.Proto, resp.Status)
	writeHeaders(&b, "< ", resp.Header)
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/event-stream" {
		b.WriteString("< (an event stream: its events are not printed here)\n")
	} else {
		data, rerr := io.ReadAll(io.LimitReader(resp.Body, maxAuthAnswer))
		// The reader gets the same bytes, then whatever was not read.
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(data), resp.Body), resp.Body}
		if rerr == nil {
			writeBody(&b, "< ", resp.Header.Get("Content-Type"), data, len(data))
		}
	}
	w.print(b.String())
	return resp, nil
}

func (w *WireLog) print(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	io.WriteString(w.Out, s+"\n")
}

// secretParams are the form and query parameters that are secrets.
var secretParams = []string{"code", "code_verifier", "client_secret", "refresh_token", "access_token", "assertion"}

// secretJSON finds the JSON members that are secrets.
var secretJSON = regexp.MustCompile(`("(?:access_token|refresh_token|id_token|client_secret)"\s*:\s*")([^"]*)(")`)

// secretInText finds secret parameters in a text, such as an HTML page.
var secretInText = regexp.MustCompile(`\b(?:code|code_verifier|client_secret|refresh_token|access_token)=[^&"'\s<>]+`)

// Mask shortens a secret to its first four characters and its length:
// enough to tell two tokens apart in a log, not enough to use one.
func Mask(secret string) string {
	if len(secret) <= 8 {
		return fmt.Sprintf("…(%d chars)", len(secret))
	}
	return fmt.Sprintf("%s…(%d chars)", secret[:4], len(secret))
}

// maskURL prints u with any secret query parameter masked.
func maskURL(u *url.URL) string {
	if u.RawQuery == "" {
		return u.String()
	}
	c := *u
	c.RawQuery = maskForm(u.RawQuery)
	return c.String()
}

// maskForm masks the secret parameters of a query or form body, leaving
// the rest as it was.
func maskForm(raw string) string {
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		name, value, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		key, _ := url.QueryUnescape(name)
		for _, s := range secretParams {
			if key == s {
				v, _ := url.QueryUnescape(value)
				parts[i] = name + "=" + url.QueryEscape(Mask(v))
			}
		}
	}
	return strings.Join(parts, "&")
}

// writeHeaders prints headers sorted by name, with Authorization's
// credentials and Location's secrets masked.
func writeHeaders(b *strings.Builder, prefix string, h http.Header) {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range h[name] {
			switch http.CanonicalHeaderKey(name) {
			case "Authorization":
				scheme, cred, _ := strings.Cut(v, " ")
				v = scheme + " " + Mask(cred)
			case "Location":
				if u, err := url.Parse(v); err == nil {
					v = maskURL(u)
				}
			}
			fmt.Fprintf(b, "%s%s: %s\n", prefix, name, v)
		}
	}
}

// writeBody prints a body of a textual type, masked.
func writeBody(b *strings.Builder, prefix, contentType string, data []byte, n int) {
	if len(data) == 0 {
		return
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	var text string
	switch {
	case mt == "application/x-www-form-urlencoded":
		text = maskForm(string(data))
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		text = secretJSON.ReplaceAllStringFunc(string(data), func(m string) string {
			parts := secretJSON.FindStringSubmatch(m)
			return parts[1] + Mask(parts[2]) + parts[3]
		})
	case strings.HasPrefix(mt, "text/"):
		// A redirect's page repeats its Location, code and all.
		text = secretInText.ReplaceAllStringFunc(string(data), func(m string) string {
			name, value, _ := strings.Cut(m, "=")
			return name + "=" + url.QueryEscape(Mask(value))
		})
	default:
		fmt.Fprintf(b, "%s(%d bytes of %s)\n", prefix, n, contentType)
		return
	}
	if len(text) > maxWireBody {
		text = fmt.Sprintf("%s… (%d more bytes)", text[:maxWireBody], len(text)-maxWireBody)
	}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(b, "%s%s\n", prefix, line)
	}
}
