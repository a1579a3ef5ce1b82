package tap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wirelab/wirelab/internal/loopback"
)

// Proxy is a tapped HTTP server: a reverse proxy in front of it that
// records every exchange and changes nothing but what RFC 9110 section
// 7.6.1 says a proxy must (the hop-by-hop headers: Connection,
// Keep-Alive, Transfer-Encoding, ...) and, for a server on another
// machine, the Host header, which then names the upstream. Event streams
// pass event by event, unbuffered.
type Proxy struct {
	upstream *url.URL
	rec      *Recorder
	loopback bool
	proxy    *httputil.ReverseProxy
	next     atomic.Int64 // the last exchange number given out
	stopping atomic.Bool  // Stop was called: what is cut short now, the tap cut
}

// Stop tells the proxy that the tap is stopping (Ctrl-C): an exchange
// cut short from now on was cut by the tap, not by the host, and the
// record says so. The server that serves the proxy is shut down after.
func (p *Proxy) Stop() { p.stopping.Store(true) }

// ProxyOptions configure a Proxy; nil means the defaults.
type ProxyOptions struct {
	// Loopback: the tap listens on a loopback address, so it answers only
	// requests for a loopback Host and from no other site's web page
	// (package loopback).
	Loopback bool
	// Transport reaches the upstream; nil means one like
	// http.DefaultTransport that never asks for compression itself, so
	// that bodies arrive as the upstream sends them to the host.
	Transport http.RoundTripper
}

// NewProxy returns a tap in front of the server at upstream, recording
// into rec. The request's path and query are kept; a request for "/"
// goes to upstream's own path.
func NewProxy(upstream string, rec *Recorder, opts *ProxyOptions) (*Proxy, error) {
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q is not an http:// or https:// URL", upstream)
	}
	if opts == nil {
		opts = &ProxyOptions{}
	}
	p := &Proxy{upstream: u, rec: rec, loopback: opts.Loopback}
	transport := opts.Transport
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// Otherwise the transport would add "Accept-Encoding: gzip" and
		// unzip the answer: the host would get other bytes than the
		// upstream sent, and other headers than it asked for.
		t.DisableCompression = true
		transport = t
	}
	p.proxy = &httputil.ReverseProxy{
		Rewrite:   p.rewrite,
		Transport: transport,
		// -1: flush after every write, so that each event of a stream
		// reaches the host the moment it arrives.
		FlushInterval:  -1,
		ModifyResponse: p.response,
		ErrorHandler:   p.failed,
		// A body that breaks off is in the record (http-end says why);
		// the tap's own stderr is not where a host's traffic goes.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return p, nil
}

// Upstream returns the URL of the tapped server.
func (p *Proxy) Upstream() string { return p.upstream.String() }

type exchangeKey struct{}

// ServeHTTP records the request and passes it on.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(p.next.Add(1))
	e := Event{Dir: Out, Kind: KindHTTPRequest, Exchange: n, Method: r.Method, URL: "http://" + r.Host + r.URL.RequestURI(), Header: r.Header.Clone()}
	if r.Body != nil && r.Body != http.NoBody {
		// The body is read before the request goes on, up to the
		// record's bound; past it, the rest streams through unrecorded.
		max := p.rec.opts.MaxData
		head, err := io.ReadAll(io.LimitReader(r.Body, int64(max)+1))
		e.setData(head, max)
		if len(head) <= max {
			// The whole body is in hand: the upstream gets it from
			// memory. Were it read from the host's request, net/http
			// would close that as soon as the answer's head is written
			// (it has seen its end), while the transport may still be
			// reading it to check that no bytes come after the
			// Content-Length; the failed read would close the upstream
			// connection in the middle of the answer.
			r.Body = io.NopCloser(bytes.NewReader(head))
		} else {
			// Longer than the record keeps: the rest streams from the
			// host, and full duplex keeps net/http from closing the
			// request body while the transport still sends it.
			http.NewResponseController(w).EnableFullDuplex()
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
		}
		if err != nil {
			p.rec.Add(e)
			p.note(n, Out, "reading the request body: "+err.Error())
			http.Error(w, "wirelab tap: reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
	}
	p.rec.Add(e)
	if p.loopback {
		if refusal := loopback.Check(r); refusal != nil {
			p.rec.Add(Event{Kind: KindNote, Dir: In, Exchange: n, Refused: true, Data: "refused by the tap: " + refusal.Reason})
			http.Error(w, refusal.Reason, refusal.Status)
			return
		}
	}
	p.proxy.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, n)))
}

func (p *Proxy) rewrite(pr *httputil.ProxyRequest) {
	out := pr.Out
	out.URL.Scheme, out.URL.Host = p.upstream.Scheme, p.upstream.Host
	if out.URL.Path == "" || out.URL.Path == "/" {
		out.URL.Path, out.URL.RawPath = p.upstream.Path, p.upstream.RawPath
	}
	// A server on this machine gets the Host the host sent, a loopback
	// name too: the links it makes from Host (an A2A agent card's URL)
	// then lead back through the tap, not around it. A server elsewhere
	// may serve several names (virtual hosting, TLS): it gets its own.
	out.Host = p.upstream.Host
	if loopback.IsLocalHost(p.upstream.Host) && loopback.IsLocalHost(pr.In.Host) {
		out.Host = pr.In.Host
	}
}

// response records the head of the upstream's answer and wraps its body
// so that what passes is recorded too.
func (p *Proxy) response(resp *http.Response) error {
	n, _ := resp.Request.Context().Value(exchangeKey{}).(int)
	p.rec.Add(Event{Dir: In, Kind: KindHTTPResponse, Exchange: n, Status: resp.StatusCode, Header: resp.Header.Clone()})
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	resp.Body = &bodyRecorder{ReadCloser: resp.Body, rec: p.rec, exchange: n, sse: mt == "text/event-stream"}
	return nil
}

// failed answers when the upstream could not be reached or broke off.
func (p *Proxy) failed(w http.ResponseWriter, r *http.Request, err error) {
	n, _ := r.Context().Value(exchangeKey{}).(int)
	switch {
	case errors.Is(err, context.Canceled) && p.stopping.Load():
		p.note(n, In, "the tap was stopped before the answer came; the host got none")
		return
	case errors.Is(err, context.Canceled):
		p.note(n, Out, "the host went away before the answer: "+err.Error())
		return
	}
	// The 502 is the tap's own answer, recorded as the host got it; it
	// says why, so no note repeats it.
	msg := fmt.Sprintf("wirelab tap: the upstream %s did not answer: %v", p.upstream, err)
	p.rec.Add(Event{Dir: In, Kind: KindHTTPResponse, Exchange: n, Status: http.StatusBadGateway, Data: msg})
	p.rec.Add(Event{Dir: In, Kind: KindHTTPEnd, Exchange: n})
	http.Error(w, msg, http.StatusBadGateway)
}

func (p *Proxy) note(exchange int, dir, msg string) {
	p.rec.Add(Event{Kind: KindNote, Dir: dir, Exchange: exchange, Data: msg})
}

// bodyRecorder records a response body as the proxy reads it: an event
// stream event by event, any other body whole at its end.
type bodyRecorder struct {
	io.ReadCloser
	rec      *Recorder
	exchange int
	sse      bool

	// buf and size are touched by the proxy's one reading goroutine;
	// once makes the end recorded once, whether by EOF, error or Close.
	buf  []byte // the body (or the current event) so far, bounded
	size int    // its real length
	// lineText says whether the line being read in an event stream has
	// any text yet: the line that has none ends an event. It is kept
	// apart from buf, which may have lost the end of a long event.
	lineText bool
	once     sync.Once
}

func (b *bodyRecorder) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.take(p[:n])
	if err != nil {
		b.finish(err)
	}
	return n, err
}

func (b *bodyRecorder) Close() error {
	b.finish(errors.New("closed before its end"))
	return b.ReadCloser.Close()
}

// take adds bytes to the body; in an event stream, each event is
// recorded as soon as the blank line that ends it has passed.
func (b *bodyRecorder) take(p []byte) {
	if !b.sse {
		b.keep(p)
		return
	}
	for len(p) > 0 {
		// An event ends at an empty line; lines end in LF, CRLF or CR
		// (the SSE standard). Looking for LF after LF, with CRs
		// ignored, covers what servers send.
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.keep(p)
			b.lineText = b.lineText || hasText(p)
			return
		}
		b.keep(p[:i+1])
		blank := !b.lineText && !hasText(p[:i])
		b.lineText = false
		p = p[i+1:]
		if blank {
			b.event(false)
		}
	}
}

// hasText reports whether part of a line has anything but CRs.
func hasText(p []byte) bool {
	return len(bytes.Trim(p, "\r")) > 0
}

func (b *bodyRecorder) keep(p []byte) {
	b.size += len(p)
	if room := b.rec.opts.MaxData - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
}

func (b *bodyRecorder) event(cut bool) {
	text := bytes.TrimRight(b.buf, "\r\n")
	if len(text) > 0 { // blank lines between events are not events
		e := Event{Dir: In, Kind: KindSSEEvent, Exchange: b.exchange, NoEOL: cut}
		e.setData(text, b.rec.opts.MaxData)
		e.Size, e.Truncated = b.size, b.size > len(b.buf)
		b.rec.Add(e)
	}
	b.buf, b.size = b.buf[:0], 0
}

func (b *bodyRecorder) finish(err error) {
	b.once.Do(func() {
		if b.sse {
			if len(bytes.TrimSpace(b.buf)) > 0 {
				b.event(true) // a last event cut off by the end of the stream
			}
		} else if b.size > 0 {
			e := Event{Dir: In, Kind: KindHTTPBody, Exchange: b.exchange, NoEOL: err != io.EOF}
			e.setData(b.buf, b.rec.opts.MaxData)
			e.Size, e.Truncated = b.size, b.size > len(b.buf)
			b.rec.Add(e)
		}
		end := Event{Dir: In, Kind: KindHTTPEnd, Exchange: b.exchange}
		if err != io.EOF {
			end.Data = "the body broke off: " + strings.TrimPrefix(err.Error(), "http: ")
		}
		b.rec.Add(end)
	})
}
