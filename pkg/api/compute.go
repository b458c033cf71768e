package api

import (
	"fmt"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/route"
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

// router returns the release's router for a profile. The decoders accept
// only the six profiles, and every release compiles all six, so a miss
// means a release built with other profiles is being served.
func (rc *runContext) router(profile string) (*route.Router, *failure) {
	if r, ok := rc.rel.Routers[profile]; ok {
		return r, nil
	}
	return nil, &failure{kind: KindServiceUnavailable, detail: fmt.Sprintf("profile %s is not in data release %s", profile, rc.rel.Manifest.DataVersion)}
}

// failure is an operation's error answer.
type failure struct {
	kind   Kind
	detail string
	errs   []FieldError
}

// compute runs one operation in the order the spec implies: authenticate
// and rate-limit (401/403/429 before anything is parsed), decode (400),
// reserve the cost (402), compute, then charge and answer, or release the
// reservation so that a failed request costs nothing.
func compute[R any](s *Server, e endpoint[R]) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		var adm *admission
		if m := s.cfg.Metering; m != nil {
			var f *failure
			if adm, f = m.admit(ctx); f != nil {
				s.fail(ctx, f)
				return
			}
		}
		if !isJSON(ctx.Request.Header.ContentType()) {
			s.problem(ctx, KindInvalidRequest, "Content-Type must be application/json", nil)
			return
		}
		req, bad := e.decode(ctx.PostBody())
		if bad != nil {
			s.problem(ctx, KindInvalidRequest, bad.Detail, bad.Errors)
			return
		}
		id := requestID(ctx)
		cost := e.cost(req)
		if adm != nil {
			if f := adm.reserve(ctx, e.name, cost, id); f != nil {
				s.fail(ctx, f)
				return
			}
			defer adm.release() // a no-op once committed
		}
		rel, done := s.cfg.Releases.Acquire()
		defer done()
		charged := int64(0)
		if adm != nil {
			charged = cost
		}
		out := make([]byte, 0, 1024)
		out = appendEnvelope(out, id, charged, rel.Manifest.DataVersion)
		out, fail := e.run(&runContext{rel: rel}, req, out)
		if fail != nil {
			s.fail(ctx, fail)
			return
		}
		if adm != nil {
			if f := adm.commit(); f != nil {
				s.fail(ctx, f)
				return
			}
			ctx.SetUserValue(UserCreditsCharged, charged)
		}
		out = append(out, '}')
		ctx.SetContentType("application/json")
		ctx.SetBody(out)
	}
}

// fail answers an operation's failure as a problem.
func (s *Server) fail(ctx *fasthttp.RequestCtx, f *failure) {
	s.problem(ctx, f.kind, f.detail, f.errs)
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
