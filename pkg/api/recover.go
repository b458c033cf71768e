package api

import (
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/valyala/fasthttp"
)

// recoverPanic turns a panic in an operation into a 500 problem and one
// ERROR line, instead of the end of the process: fasthttp does not recover
// handlers, so one bad request would otherwise drop every request in
// flight and stop the service until a restart. It must be deferred before
// anything that releases the request's hold or slot, so that those run
// first and the failed request is never charged. The log line carries the
// panic and the stack, never request bytes or headers.
func (s *Server) recoverPanic(ctx *fasthttp.RequestCtx, operation string) {
	p := recover()
	if p == nil {
		return
	}
	id := requestID(ctx)
	s.cfg.Log.Error("operation panicked; the request was answered 500 and not charged",
		slog.String("request_id", id), slog.String("operation", operation),
		slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
	ctx.Response.ResetBody()
	WriteProblem(ctx, NewProblem(KindInternal, "the server failed on this request; it was not charged; quote the request id to support", id, nil))
}
