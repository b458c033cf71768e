package api

import (
	"net"
	"testing"
	"time"
)

// tcpPair returns both ends of a loopback TCP connection.
func tcpPair(t testing.TB) (server, client *net.TCPConn) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); s.Close() })
	return s.(*net.TCPConn), c.(*net.TCPConn)
}

// eventually polls clientGone: a FIN or reset takes a moment to arrive.
func eventually(c net.Conn, want bool) bool {
	for range 100 {
		if clientGone(c) == want {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

func TestClientGone(t *testing.T) {
	if clientGone(nil) {
		t.Error("no connection counts as gone")
	}
	s, c := tcpPair(t)
	if clientGone(s) {
		t.Fatal("an open, idle connection counts as gone")
	}
	// A pipelined request is kept for fasthttp to read.
	c.Write([]byte("GET / HTTP/1.1\r\n"))
	if !eventually(s, false) {
		t.Fatal("a connection with pending bytes counts as gone")
	}
	buf := make([]byte, 64)
	if n, _ := s.Read(buf); n != 16 {
		t.Fatalf("the peek consumed bytes: read %d of 16", n)
	}
	c.Close()
	if !eventually(s, true) {
		t.Fatal("a closed connection is not seen as gone")
	}

	s2, c2 := tcpPair(t)
	c2.SetLinger(0) // close with a reset
	c2.Close()
	if !eventually(s2, true) {
		t.Fatal("a reset connection is not seen as gone")
	}
}

// BenchmarkClientGone is what the check costs a request: one non-blocking
// recvfrom on an open connection.
func BenchmarkClientGone(b *testing.B) {
	s, _ := tcpPair(b)
	for b.Loop() {
		if clientGone(s) {
			b.Fatal("gone")
		}
	}
}
