// Package trickle sends an HTTP request whose body arrives a byte at a
// time, as a slow or hostile client sends it: the servers' tests use it
// to hold them to their read deadlines.
package trickle

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Post writes head on conn (the request line and the headers, each line
// ended by CRLF, without Content-Length, which Post adds), then body, a
// byte every gap, until the answer comes, the body is all sent, or a
// write fails. It returns the answer with its body read.
func Post(conn net.Conn, head, body string, gap time.Duration) (*http.Response, []byte, error) {
	if _, err := io.WriteString(conn, head+"Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"); err != nil {
		return nil, nil, err
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	// The trickler ends at the answer (stop), at the end of the body, or
	// at a failed write.
	go func() {
		defer wg.Done()
		for i := range len(body) {
			select {
			case <-stop:
				return
			case <-time.After(gap):
			}
			if _, err := conn.Write([]byte{body[i]}); err != nil {
				return
			}
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	close(stop)
	wg.Wait()
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	return resp, got, err
}
