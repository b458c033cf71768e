package api

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ratelimit"
)

// Metering is what charges for compute requests (spec §4, §5, §7): the
// ledger's per-request half and the per-key rate limiter.
//
// Its calls to them carry no deadline: the network-backed ones (PostgreSQL,
// Redis) bound their own calls and answer ErrUnavailable, so the request
// 503, within a few seconds, and the in-process ones never wait on a
// network. A timer for each of a request's three or four calls cost 3 µs of
// CPU a request (profiled at 64 clients), for nothing.
type Metering struct {
	Meter   ledger.Meter
	Limiter ratelimit.Limiter
	// DefaultRate is the requests/second of a key without its own limit;
	// 0 means DefaultRate.
	DefaultRate int
	// Idempotency keeps the answers of requests sent with an
	// Idempotency-Key (idempotency.go). nil refuses the header with a 400.
	Idempotency ledger.Idempotency
}

// DefaultRate is the per-key limit when neither the key nor the server sets
// one: the spec's example figure, 50 requests per second.
const DefaultRate = 50

// admission is an authenticated, rate-checked request on its way to being
// charged.
type admission struct {
	m    *Metering
	key  ledger.KeyInfo
	resv ledger.Reservation
	held bool
}

// bearerHelp is the detail of every 401: how to send the key (spec §7).
const bearerHelp = `send your secret API key in the Authorization header: "Authorization: Bearer sk_..."`

// admit authenticates the request's key and checks its rate, setting the
// X-RateLimit-* headers. It returns a problem to answer instead, or nil.
func (m *Metering) admit(ctx *fasthttp.RequestCtx) (*admission, *failure) {
	key, ok := bearer(ctx.Request.Header.Peek(fasthttp.HeaderAuthorization))
	if !ok {
		return nil, &failure{kind: KindUnauthorized, detail: "missing or malformed API key; " + bearerHelp}
	}
	info, err := m.Meter.Authenticate(context.Background(), key)
	switch {
	case errors.Is(err, ledger.ErrUnavailable):
		return nil, unavailable("the ledger")
	case errors.Is(err, ledger.ErrRevokedKey):
		return nil, &failure{kind: KindUnauthorized, detail: "this API key was revoked; " + bearerHelp}
	case errors.Is(err, ledger.ErrMalformedKey):
		return nil, &failure{kind: KindUnauthorized, detail: "malformed API key (wrong length, characters or checksum: was it copied whole?); " + bearerHelp}
	case err != nil:
		return nil, &failure{kind: KindUnauthorized, detail: "unknown or malformed API key; " + bearerHelp}
	case info.Kind != ledger.KindSecret:
		return nil, &failure{kind: KindKeyNotPermitted, detail: "public keys cannot call compute endpoints; use a secret key (sk_...) from your server"}
	case info.AccountStatus != ledger.StatusActive:
		return nil, suspended()
	}
	ctx.SetUserValue(UserAccountID, info.AccountID)
	if f := m.limit(ctx, info); f != nil {
		return nil, f
	}
	return &admission{m: m, key: info}, nil
}

// limit applies the key's rate limit.
func (m *Metering) limit(ctx *fasthttp.RequestCtx, info ledger.KeyInfo) *failure {
	rate := info.RateLimit
	if rate <= 0 {
		rate = m.DefaultRate
	}
	if rate <= 0 {
		rate = DefaultRate
	}
	d, err := m.Limiter.Allow(context.Background(), info.KeyID, rate)
	if err != nil {
		return unavailable("the rate limiter")
	}
	h := &ctx.Response.Header
	h.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(d.ResetUnix(), 10))
	if !d.Allowed {
		h.Set("Retry-After", strconv.Itoa(d.RetryAfterSeconds()))
		return &failure{kind: KindRateLimited, detail: fmt.Sprintf("this key may make %d requests per second; retry after %d s", d.Limit, d.RetryAfterSeconds())}
	}
	return nil
}

// reserve holds the request's cost on the account.
func (a *admission) reserve(ctx *fasthttp.RequestCtx, operation string, credits int64, requestID string) *failure {
	r, err := a.m.Meter.Reserve(context.Background(), a.key, operation, credits, requestID)
	var short *ledger.InsufficientCreditsError
	switch {
	case errors.As(err, &short):
		ctx.Response.Header.Set("X-Credits-Remaining", strconv.FormatInt(max(0, short.Balance), 10))
		detail := fmt.Sprintf("balance is %d credits and this request costs %d", short.Balance, short.Cost)
		if short.Cap != "" {
			detail = fmt.Sprintf("this request costs %d credits and the %s spend cap allows %d more (balance %d)", short.Cost, short.Cap, short.CapRemaining, short.Balance)
		}
		return &failure{kind: KindInsufficientCredits, detail: detail}
	case errors.Is(err, ledger.ErrAccountSuspended):
		return suspended()
	case err != nil:
		return unavailable("the ledger")
	}
	a.resv, a.held = r, true
	return nil
}

// commit charges the held credits; the response may say 200 only if it
// returns nil.
func (a *admission) commit() error {
	a.held = false
	return a.m.Meter.Commit(context.Background(), a.resv)
}

// release gives back what reserve held, when the request failed.
func (a *admission) release() {
	if a == nil || !a.held {
		return
	}
	a.held = false
	a.m.Meter.Release(context.Background(), a.resv) // an error leaves a hold that expires on its own
}

// bearer extracts the key from "Bearer <key>" (the scheme is case-insensitive).
func bearer(h []byte) (string, bool) {
	const scheme = "bearer "
	if len(h) <= len(scheme) {
		return "", false
	}
	for i := range len(scheme) {
		c := h[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != scheme[i] {
			return "", false
		}
	}
	key := string(h[len(scheme):])
	for i := range len(key) {
		if key[i] <= ' ' || key[i] >= 0x7f {
			return "", false
		}
	}
	return key, true
}

func unavailable(what string) *failure {
	return &failure{kind: KindServiceUnavailable, detail: what + " is not answering; retry with backoff"}
}

func suspended() *failure {
	return &failure{kind: KindAccountSuspended, detail: "this account is suspended; contact support to restore it"}
}
