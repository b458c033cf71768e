package api

import (
	"context"
	"log/slog"
	"time"

	"github.com/valyala/fasthttp"
)

// User values compute.go (metering) may set on a request for the access log
// and the metrics. Both are optional: absent means unknown, or nothing charged.
const (
	UserAccountID      = "account_id"      // string: the account the key belongs to
	UserCreditsCharged = "credits_charged" // int64: credits deducted for this request
	// UserReplayChanged (bool) is set on a retry computed again for its
	// Idempotency-Key (the first answer was stored as a hash): whether the
	// answer differs from the first (a release swap came in between).
	UserReplayChanged = "replay_changed"
)

// observe writes the request's log line and counts it. The line holds no
// header and no path or query: the Authorization header carries a secret
// key, a careless client may put one in the URL, and a key in a log is a
// leaked key. Known paths are named by their operation, and the method by
// methodName. Every other field is the server's own (request id,
// operation, status, latency, account id, credits), so a client controls
// no byte of the line beyond choosing among a fixed set of values.
func (s *Server) observe(ctx *fasthttp.RequestCtx, operation string, took time.Duration) {
	status := ctx.Response.StatusCode()
	credits, _ := ctx.UserValue(UserCreditsCharged).(int64)
	if s.cfg.Metrics != nil {
		s.cfg.Metrics.observe(operation, status, took, credits)
	}
	bg := context.Background() // see ready: a RequestCtx is no request-scoped context
	if !s.cfg.Log.Enabled(bg, slog.LevelInfo) {
		return
	}
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs,
		slog.String("request_id", requestID(ctx)),
		slog.String("operation", operation),
		slog.String("method", methodName(ctx.Method())),
		slog.Int("status", status),
		slog.Float64("latency_ms", float64(took.Microseconds())/1000),
	)
	if acct, ok := ctx.UserValue(UserAccountID).(string); ok && acct != "" {
		attrs = append(attrs, slog.String("account_id", acct))
	}
	if credits != 0 {
		attrs = append(attrs, slog.Int64("credits_charged", credits))
	}
	if changed, ok := ctx.UserValue(UserReplayChanged).(bool); ok {
		replay := "same"
		if changed {
			replay = "changed"
		}
		attrs = append(attrs, slog.String("replay", replay))
	}
	s.cfg.Log.LogAttrs(bg, slog.LevelInfo, "request", attrs...)
}

// methodName is the method as the access log writes it: one of the
// methods of RFC 9110 (and PATCH), or "other". The method token is the
// client's, up to fasthttp's header limit (4 KiB): logged verbatim, a key
// sent as the method landed in the log, and anyone could write 4 KiB lines
// at will (issue 34 item 6).
func methodName(m []byte) string {
	for _, known := range knownMethods {
		if string(m) == known {
			return known
		}
	}
	return "other"
}

var knownMethods = [...]string{fasthttp.MethodGet, fasthttp.MethodHead, fasthttp.MethodPost, fasthttp.MethodPut,
	fasthttp.MethodPatch, fasthttp.MethodDelete, fasthttp.MethodConnect, fasthttp.MethodOptions, fasthttp.MethodTrace}
