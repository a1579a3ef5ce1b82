package wire

import (
	"bytes"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
)

// serveRaw answers every connection to a listener with answer, once the
// request's head has come, and returns the listener's address.
func serveRaw(t *testing.T, answer func(c net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	// Accepts until the listener closes at the test's end; each
	// connection ends when answer returns.
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 4096)
				var req []byte
				for !bytes.Contains(req, []byte("\r\n\r\n")) {
					n, err := c.Read(buf)
					if err != nil {
						return
					}
					req = append(req, buf[:n]...)
				}
				answer(c)
			}()
		}
	}()
	return ln.Addr().String()
}

// TestHTTPHeadWithoutEnd: an answer whose head never ends, header line
// after header line, is stopped at maxHead with an error that says so,
// having shown no more than that of it.
func TestHTTPHeadWithoutEnd(t *testing.T) {
	addr := serveRaw(t, func(c net.Conn) {
		c.Write([]byte("HTTP/1.1 200 OK\r\n"))
		line := []byte("X-Again: " + strings.Repeat("a", 1000) + "\r\n")
		for {
			if _, err := c.Write(line); err != nil {
				return
			}
		}
	})
	_, srv := startHub(t, Targets{HTTPURL: "http://" + addr})
	conn := dial(t, srv)
	readHello(t, conn)
	send(t, conn, Command{Op: "send", ID: 1, Target: "http", Frame: "GET / HTTP/1.1\n\n"})
	shown := 0
	ev := next(t, conn, func(ev Event) bool {
		if ev.Kind == "raw" {
			shown += ev.Size
		}
		return ev.Op == "error" || ev.Kind == "http-head"
	})
	if ev.Op != "error" || !strings.Contains(ev.Message, "its head passed 1024 KiB without the empty line that ends it") {
		t.Errorf("the answer ended with %+v", ev)
	}
	if shown > maxHead {
		t.Errorf("%d bytes of the head were shown; at most %d are read", shown, maxHead)
	}
}

// TestFastBodyHeldBack: a server that sends its body faster than the
// page reads the events is held back, not let fill the tab's queue: the
// tab, slow to start reading, is not dropped, and gets every byte of
// the body and its end.
func TestFastBodyHeldBack(t *testing.T) {
	const size = 16 << 20 // hundreds of reads, each two events: far past sendBuffer
	addr := serveRaw(t, func(c net.Conn) {
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n", size)
		chunk := bytes.Repeat([]byte("x"), 32<<10)
		for sent := 0; sent < size; sent += len(chunk) {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	})
	_, srv := startHub(t, Targets{HTTPURL: "http://" + addr})
	conn := dial(t, srv)
	readHello(t, conn)
	send(t, conn, Command{Op: "send", ID: 1, Target: "http", Frame: "GET / HTTP/1.1\n\n"})
	// The page is busy: the server goes on sending meanwhile. (A wait,
	// not a measure: a hub that did not hold the server back would
	// have filled the queue long before.)
	time.Sleep(2 * time.Second)
	body := 0
	next(t, conn, func(ev Event) bool {
		if ev.Kind == "http-body" {
			body += ev.Size
		}
		return ev.Kind == "end"
	})
	if body != size {
		t.Errorf("the page got %d bytes of the body, of %d", body, size)
	}
}
