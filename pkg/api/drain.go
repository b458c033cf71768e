package api

import (
	"time"

	"github.com/valyala/fasthttp"
)

// Over-limit bodies: fasthttp refuses a body over MaxRequestBodySize as soon
// as it has read the headers, answers, and closes the connection. A client
// that writes its whole body before reading (Python's http.client, curl
// with a file) is then still writing into a closed socket: it gets a reset
// or a broken pipe, never the 400. So before the 400 goes out, the rest of
// the body is read and thrown away, within bounds: at most drainBound
// bytes, drainIdle without a byte, drainTotal in all. A larger body still
// ends in a reset, which is all a client sending tens of MiB to a 1 MiB
// API can expect.
const (
	drainBound = 16 << 20
	drainIdle  = time.Second
	drainTotal = 10 * time.Second
	// fasthttpReadBuffer is fasthttp's default ReadBufferSize: up to that
	// much of the body may already sit in its reader, out of our reach.
	fasthttpReadBuffer = 4096
)

// drainBody reads and discards what is left of an over-limit request body
// on ctx's connection.
func drainBody(ctx *fasthttp.RequestCtx) {
	conn := ctx.Conn()
	want := int64(drainBound)
	if cl := ctx.Request.Header.ContentLength(); cl >= 0 {
		want = min(int64(cl), drainBound)
	}
	start := time.Now()
	defer conn.SetReadDeadline(time.Time{})
	buf := make([]byte, 64<<10) // an over-limit request is rare; nothing to pool
	var got int64
	for got < want {
		idle := drainIdle
		if got >= want-fasthttpReadBuffer {
			// The rest may be in fasthttp's buffer already: wait only
			// briefly for bytes still on the wire.
			idle = 50 * time.Millisecond
		}
		deadline := min(time.Now().Add(idle).UnixNano(), start.Add(drainTotal).UnixNano())
		if err := conn.SetReadDeadline(time.Unix(0, deadline)); err != nil {
			return
		}
		n, err := conn.Read(buf)
		got += int64(n)
		if err != nil {
			return
		}
	}
}
