package grpctool_test

import (
	"io"
	"net"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/tools"
)

// TestSilentAndIdleConnectionsClose: a peer that connects and says
// nothing is dropped after the handshake timeout, and one that finishes
// the HTTP/2 handshake but never calls is sent GOAWAY after the idle
// timeout, then dropped.
func TestSilentAndIdleConnectionsClose(t *testing.T) {
	const patience = 20 * time.Second // a guard against hanging, not a measurement
	addr := start(t, tools.New(nil), &grpctool.ServerOptions{HandshakeTimeout: 200 * time.Millisecond, MaxConnectionIdle: 200 * time.Millisecond})

	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	silent.SetReadDeadline(time.Now().Add(patience))
	if _, err := io.Copy(io.Discard, silent); err != nil {
		t.Fatalf("a silent connection stayed open: %v", err)
	}

	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	io.WriteString(idle, http2.ClientPreface)
	fr := http2.NewFramer(idle, idle)
	fr.WriteSettings()
	idle.SetReadDeadline(time.Now().Add(patience))
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("the idle connection ended without GOAWAY: %v", err)
		}
		if s, ok := f.(*http2.SettingsFrame); ok && !s.IsAck() {
			fr.WriteSettingsAck()
		}
		if _, ok := f.(*http2.GoAwayFrame); ok {
			break
		}
	}
}
