package api

import (
	"net"
	"syscall"
)

// clientGone reports whether the client closed its connection (or it was
// reset) while its request was computing: a client that gave up after its
// timeout must not be charged for an answer it will never read (issue 19,
// item 3). The request has been read in full by then, so a read on the
// socket is either the next pipelined request (kept, MSG_PEEK) or the
// client's FIN (0 bytes) or reset; MSG_DONTWAIT makes it a poll that never
// blocks. One recvfrom system call, about 1 µs (BenchmarkClientGone).
//
// A client that half-closes its side after sending (shutdown(SHUT_WR)) and
// still reads counts as gone, as nginx counts it: HTTP clients do not do
// that. Connections that are no socket (tests) are never gone.
func clientGone(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	gone := false
	var buf [1]byte
	err = raw.Read(func(fd uintptr) bool {
		n, _, err := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case err == syscall.EAGAIN || err == syscall.EINTR:
		case err != nil:
			gone = true // ECONNRESET and the like
		case n == 0:
			gone = true // FIN: the client closed
		}
		return true // never wait for readiness
	})
	return gone || err != nil
}
