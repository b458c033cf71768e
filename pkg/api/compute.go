package api

import (
	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/release"
)

// endpoint describes one compute operation; compute turns it into a handler
// so that every operation is decoded, charged and answered the same way.
type endpoint[R any] struct {
	name   string // operation name in logs and usage records
	decode func(body []byte) (R, *InvalidRequest)
	cost   func(R) int64 // credits, known before computing (spec §4)
	// run computes the answer and appends the operation's response fields
	// (after the envelope, starting with a comma) to dst.
	run func(rc *runContext, req R, dst []byte) ([]byte, *failure)
}

// runContext is what an operation may use while it runs.
type runContext struct {
	rel *release.Release
}

// failure is an operation's error answer.
type failure struct {
	kind   Kind
	detail string
	errs   []FieldError
}

func compute[R any](s *Server, e endpoint[R]) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		if !isJSON(ctx.Request.Header.ContentType()) {
			s.problem(ctx, KindInvalidRequest, "Content-Type must be application/json", nil)
			return
		}
		req, bad := e.decode(ctx.PostBody())
		if bad != nil {
			s.problem(ctx, KindInvalidRequest, bad.Detail, bad.Errors)
			return
		}
		rel, done := s.cfg.Releases.Acquire()
		defer done()
		var charged int64 // metering lands with the ledger
		id := requestID(ctx)
		out := make([]byte, 0, 1024)
		out = appendEnvelope(out, id, charged, rel.Manifest.DataVersion)
		out, fail := e.run(&runContext{rel: rel}, req, out)
		if fail != nil {
			s.problem(ctx, fail.kind, fail.detail, fail.errs)
			return
		}
		out = append(out, '}')
		ctx.SetContentType("application/json")
		ctx.SetBody(out)
	}
}

// appendEnvelope opens the response object with the fields every success
// carries (spec §2, Envelope).
func appendEnvelope(dst []byte, requestID string, credits int64, dataVersion string) []byte {
	dst = append(dst, '{')
	dst = appendKey(dst, "request_id", false)
	dst = appendString(dst, requestID)
	dst = appendKey(dst, "credits_charged", true)
	dst = appendNumber(dst, float64(credits), 0)
	dst = appendKey(dst, "data_version", true)
	return appendString(dst, dataVersion)
}
