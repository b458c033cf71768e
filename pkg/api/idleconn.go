package api

import (
	"errors"
	"net"
	"sync/atomic"
	"syscall"

	"github.com/valyala/fasthttp"
)

// Idle connections (issue 34 item 7). fasthttp applies ReadTimeout to the
// first byte of a new connection's first request and, when it passes,
// calls the ErrorHandler as for a malformed request: mapd answered an
// unsolicited "400 malformed HTTP request" to a connection a pooled
// client had opened and not yet used, and a client that sent its request
// at that moment read the 400 as its answer. (Between requests on a
// kept-alive connection fasthttp closes quietly after IdleTimeout.)
//
// The ErrorHandler cannot tell that case from a request whose body stalled:
// fasthttp resets the request after a failed body read, and passes both
// timeouts unwrapped. So Listener marks each connection once a byte was
// read from it, and transportError closes a connection that timed out
// before its first byte without a response; a request that started and
// stalled still gets its 400, saying so.

// Listener wraps ln so that the server can tell an idle connection from a
// stalled request: serve HTTPServer on it.
func Listener(ln net.Listener) net.Listener { return markingListener{ln} }

type markingListener struct{ net.Listener }

func (l markingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &markedConn{Conn: c}, nil
}

// markedConn is a connection that knows whether a byte was read from it.
// It forwards SyscallConn, which clientGone needs.
type markedConn struct {
	net.Conn
	started atomic.Bool
}

func (c *markedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && !c.started.Load() {
		c.started.Store(true)
	}
	return n, err
}

func (c *markedConn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.ErrUnsupported
}

// idleTimeout reports whether err is ReadTimeout passing before the first
// byte of a connection. On a connection that does not come from Listener
// it counts any timeout before the request's headers were parsed (a
// stalled body too: fasthttp resets the headers).
func idleTimeout(ctx *fasthttp.RequestCtx, err error) bool {
	ne, ok := err.(net.Error)
	if !ok || !ne.Timeout() {
		return false
	}
	if mc, ok := ctx.Conn().(*markedConn); ok {
		return !mc.started.Load()
	}
	return ctx.Request.Header.Len() == 0 && len(ctx.Request.Header.Host()) == 0
}
