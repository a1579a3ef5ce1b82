package tap

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format
// browsers' developer tools import: only the members a viewer needs.
type har struct {
	Log harLog `json:"log"`
}

type harLog struct {
	Version string     `json:"version"`
	Creator harCreator `json:"creator"`
	Entries []harEntry `json:"entries"`
}

type harCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type harEntry struct {
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"`
	Request         harRequest  `json:"request"`
	Response        harResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         harTimings  `json:"timings"`
}

type harRequest struct {
	Method      string      `json:"method"`
	URL         string      `json:"url"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []struct{}  `json:"cookies"`
	Headers     []harHeader `json:"headers"`
	QueryString []harHeader `json:"queryString"`
	PostData    *harPost    `json:"postData,omitempty"`
	HeadersSize int         `json:"headersSize"`
	BodySize    int         `json:"bodySize"`
}

type harResponse struct {
	Status      int         `json:"status"`
	StatusText  string      `json:"statusText"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []struct{}  `json:"cookies"`
	Headers     []harHeader `json:"headers"`
	Content     harContent  `json:"content"`
	RedirectURL string      `json:"redirectURL"`
	HeadersSize int         `json:"headersSize"`
	BodySize    int         `json:"bodySize"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harPost struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}

type harContent struct {
	Size     int    `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Encoding string `json:"encoding,omitempty"`
}

type harTimings struct {
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

// WriteHAR writes the HTTP exchanges of a recording as a HAR file. An
// event stream's body is its events as they passed, one blank line
// apart.
func WriteHAR(w io.Writer, events []Event, creatorVersion string) error {
	type exchange struct {
		req, resp  *Event
		body       []string
		b64        string
		end        time.Time
		firstBytes time.Time
	}
	byNum := map[int]*exchange{}
	for i := range events {
		e := &events[i]
		if e.Exchange == 0 {
			continue
		}
		x := byNum[e.Exchange]
		if x == nil {
			x = &exchange{}
			byNum[e.Exchange] = x
		}
		switch e.Kind {
		case KindHTTPRequest:
			x.req = e
		case KindHTTPResponse:
			x.resp = e
		case KindHTTPBody:
			if e.Base64 != "" {
				x.b64 = e.Base64
			} else {
				x.body = append(x.body, e.Data)
			}
		case KindSSEEvent:
			x.body = append(x.body, e.Data+"\n\n")
		case KindHTTPEnd:
			x.end = e.T
		}
	}
	nums := make([]int, 0, len(byNum))
	for n, x := range byNum {
		if x.req != nil {
			nums = append(nums, n)
		}
	}
	sort.Ints(nums)
	out := har{Log: harLog{Version: "1.2", Creator: harCreator{Name: "wirelab tap", Version: creatorVersion}, Entries: []harEntry{}}}
	for _, n := range nums {
		x := byNum[n]
		req := harRequest{Method: x.req.Method, URL: x.req.URL, HTTPVersion: "HTTP/1.1", Cookies: []struct{}{},
			Headers: harHeaders(x.req.Header), QueryString: []harHeader{}, HeadersSize: -1, BodySize: x.req.Size}
		if u, err := url.Parse(x.req.URL); err == nil {
			for k, vs := range u.Query() {
				for _, v := range vs {
					req.QueryString = append(req.QueryString, harHeader{k, v})
				}
			}
		}
		if x.req.Size > 0 {
			req.PostData = &harPost{MimeType: x.req.Header.Get("Content-Type"), Text: string(x.req.Bytes())}
		}
		resp := harResponse{HTTPVersion: "HTTP/1.1", Cookies: []struct{}{}, Headers: []harHeader{}, HeadersSize: -1, BodySize: -1}
		end := x.end
		if x.resp != nil {
			resp.Status, resp.StatusText = x.resp.Status, http.StatusText(x.resp.Status)
			resp.Headers = harHeaders(x.resp.Header)
			resp.Content.MimeType = x.resp.Header.Get("Content-Type")
			if x.resp.Data != "" && len(x.body) == 0 { // the tap's own 502
				x.body = []string{x.resp.Data}
			}
			if end.IsZero() {
				end = x.resp.T
			}
		}
		resp.Content.Text = strings.Join(x.body, "")
		if x.b64 != "" {
			resp.Content.Text, resp.Content.Encoding = x.b64, "base64"
		}
		resp.Content.Size = len(resp.Content.Text)
		total := 0.0
		if !end.IsZero() {
			total = float64(end.Sub(x.req.T).Microseconds()) / 1000
		}
		out.Log.Entries = append(out.Log.Entries, harEntry{
			StartedDateTime: x.req.T.Format(time.RFC3339Nano), Time: total,
			Request: req, Response: resp, Timings: harTimings{Send: 0, Wait: total, Receive: 0},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func harHeaders(h http.Header) []harHeader {
	out := []harHeader{}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range h[k] {
			out = append(out, harHeader{k, v})
		}
	}
	return out
}
