package tap

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// benchLine is one MCP-sized message.
var benchLine = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"word_count","arguments":{"text":"read the wire"}}}` + "\n"

// roundTrips writes a line and reads its echo n times, and returns the
// time per round trip.
func roundTrips(b *testing.B, w io.Writer, r *bufio.Reader, n int) time.Duration {
	start := time.Now()
	for range n {
		if _, err := io.WriteString(w, benchLine); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start) / time.Duration(n)
}

// BenchmarkStdioOverhead: a message to cat and back, through the tap and
// through a direct pipe; reports both and their ratio.
func BenchmarkStdioOverhead(b *testing.B) {
	// Direct.
	cmd := exec.Command("cat")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Skip("no cat:", err)
	}
	direct := roundTrips(b, in, bufio.NewReader(out), b.N)
	in.Close()
	cmd.Wait()

	// Through the tap.
	hostIn, toTap := io.Pipe()
	fromTap, hostOut := io.Pipe()
	s := &Stdio{Argv: []string{"cat"}, Stdin: hostIn, Stdout: hostOut, Stderr: io.Discard, Recorder: NewRecorder(nil)}
	done := make(chan struct{})
	go func() { // ends when cat exits, after toTap is closed
		s.Run(context.Background())
		hostOut.Close()
		close(done)
	}()
	b.ResetTimer()
	tapped := roundTrips(b, toTap, bufio.NewReader(fromTap), b.N)
	b.StopTimer()
	toTap.Close()
	go io.Copy(io.Discard, fromTap) // ends when hostOut closes
	<-done
	report(b, direct, tapped)
}

// BenchmarkHTTPOverhead: a POST answered with its own body, directly and
// through the proxy.
func BenchmarkHTTPOverhead(b *testing.B) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.Copy(w, r.Body)
	}))
	defer upstream.Close()
	p, err := NewProxy(upstream.URL, NewRecorder(nil), &ProxyOptions{Loopback: true})
	if err != nil {
		b.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	post := func(url string) time.Duration {
		start := time.Now()
		for range b.N {
			resp, err := client.Post(url+"/mcp", "application/json", strings.NewReader(benchLine))
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return time.Since(start) / time.Duration(b.N)
	}
	post(upstream.URL) // warm both connections up
	post(front.URL)
	direct := post(upstream.URL)
	b.ResetTimer()
	tapped := post(front.URL)
	b.StopTimer()
	report(b, direct, tapped)
}

func report(b *testing.B, direct, tapped time.Duration) {
	b.ReportMetric(float64(direct.Microseconds()), "direct-µs/msg")
	b.ReportMetric(float64(tapped.Microseconds()), "tap-µs/msg")
	b.ReportMetric(float64(tapped)/float64(max(direct, 1)), "tap/direct")
	b.ReportMetric(float64((tapped - direct).Microseconds()), "overhead-µs/msg")
}
