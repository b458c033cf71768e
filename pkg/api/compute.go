package api

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
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
	// light operations skip the admission queue (admission.go): their
	// work is bounded to microseconds.
	light bool
	// headers, when set, completes a decoded request from the request's
	// headers (directions: Accept-Language when the body names no language).
	headers func(req *R, h *fasthttp.RequestHeader)
}

// runContext is what an operation may use while it runs.
type runContext struct {
	rel *serving.Release
	// deadline is when the request must have its answer (arrival +
	// Config.ComputeTimeout); engines that take a context stop there.
	deadline time.Time
	ctx      context.Context // made by context on first use
	cancel   context.CancelFunc
}

// context returns a context that ends at the request's deadline. It is
// made on first use: elevation never needs one, and its timer would cost
// the cheapest request a microsecond.
func (rc *runContext) context() context.Context {
	if rc.ctx == nil {
		rc.ctx, rc.cancel = context.WithDeadline(context.Background(), rc.deadline)
	}
	return rc.ctx
}

func (rc *runContext) end() {
	if rc.cancel != nil {
		rc.cancel()
	}
}

// router returns the release's router for a profile. The decoders accept
// only the six profiles, and every release compiles all six, so a miss
// means a release built with other profiles is being served.
func (rc *runContext) router(profile string) (*route.Router, *failure) {
	if r, ok := rc.rel.Routers[profile]; ok {
		return r, nil
	}
	// A release compiled from a subset of the profiles (mapc build
	// --profiles with only car.json, say) answers the others as the
	// client's mistake, naming what it holds, and charges nothing.
	held := heldProfiles(rc.rel.Routers)
	msg := fmt.Sprintf("profile %s is not in data release %s; it holds %s", profile, rc.rel.Manifest.DataVersion, held)
	return nil, &failure{kind: KindInvalidRequest, detail: msg, errs: []FieldError{{Field: "/profile", Message: msg}}}
}

// heldProfiles lists the profiles a release serves, in Profiles() order.
func heldProfiles(routers map[string]*route.Router) string {
	var held []string
	for _, p := range Profiles() {
		if _, ok := routers[p]; ok {
			held = append(held, p)
		}
	}
	return strings.Join(held, ", ")
}

// failure is an operation's error answer.
type failure struct {
	kind       Kind
	detail     string
	errs       []FieldError
	retryAfter int // seconds; > 0 adds Retry-After
}

// compute runs one operation in the order the spec implies, after a 503
// when the server is already at capacity: authenticate and rate-limit (401/403/429 before anything is parsed), decode (400),
// claim the Idempotency-Key (a replay, or 409), wait for a computation slot
// (or 503 when shedding load), reserve the cost (402), compute, then charge
// and answer, or release the reservation so that a failed request costs
// nothing. A request answers 200 only if it finished within
// ComputeTimeout and its client is still connected (call.go's call
// holds what is given back when it does not).
func compute[R any](s *Server, e endpoint[R]) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		defer s.recoverPanic(ctx, e.name) // first deferred, so it runs after the release below
		if !e.light && s.admission.full() {
			s.fail(ctx, s.admission.shed("and the queue is full"))
			return
		}
		c := &call{s: s, ctx: ctx, deadline: time.Now().Add(s.cfg.ComputeTimeout)}
		defer c.end()
		req, ok := decodeFor(c, e)
		if !ok || !c.claim(e.name) {
			return
		}
		cost := e.cost(req)
		if !e.light && !c.takeSlot(cost) {
			return
		}
		if !c.reserve(e.name, cost) {
			return
		}
		rel, done := s.cfg.Releases.Acquire()
		defer done()
		rc := &runContext{rel: rel, deadline: c.deadline}
		defer rc.end()
		out := make([]byte, 0, 1024)
		out = appendEnvelope(out, c.id, c.charged(), rel.Manifest.DataVersion)
		out, fail := e.run(rc, req, out)
		c.freeSlot()
		if fail != nil {
			s.fail(ctx, fail)
			return
		}
		if c.late() || c.clientGone() {
			return
		}
		out = append(out, '}')
		if c.charge(out) {
			ctx.SetContentType("application/json")
			// Not SetBody: it copies into the connection's body buffer,
			// which fasthttp keeps for the connection's life, so 512 idle
			// connections that each once got a 300 KB answer held 150 MiB
			// (docs/benchmarks-history.md, "Load shedding"). out is never changed again.
			ctx.Response.SetBodyRaw(out)
		}
	}
}

// decodeFor authenticates and rate-limits the request (when metered) and
// decodes its body.
func decodeFor[R any](c *call, e endpoint[R]) (R, bool) {
	var zero R
	if m := c.s.cfg.Metering; m != nil {
		var f *failure
		if c.adm, f = m.admit(c.ctx); f != nil {
			c.s.fail(c.ctx, f)
			return zero, false
		}
	}
	if !isJSON(c.ctx.Request.Header.ContentType()) {
		c.s.problem(c.ctx, KindInvalidRequest, "Content-Type must be application/json", nil)
		return zero, false
	}
	if f := c.s.plainBody(c.ctx); f != nil {
		c.s.fail(c.ctx, f)
		return zero, false
	}
	req, bad := e.decode(c.ctx.PostBody())
	if bad != nil {
		c.s.problem(c.ctx, KindInvalidRequest, bad.Detail, bad.Errors)
		return zero, false
	}
	if e.headers != nil {
		e.headers(&req, &c.ctx.Request.Header)
	}
	c.id = requestID(c.ctx)
	return req, true
}

// fail answers an operation's failure as a problem.
func (s *Server) fail(ctx *fasthttp.RequestCtx, f *failure) {
	if f.retryAfter > 0 {
		ctx.Response.Header.Set("Retry-After", strconv.Itoa(f.retryAfter))
	}
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
