package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Limiter decides whether one more request of a key fits its limit.
type Limiter interface {
	// Allow counts one request of key against limit requests/second
	// (limit >= 1) and says whether it may proceed. A denied request is
	// not counted. An error (wrapping ErrUnavailable or ErrInvalidLimit)
	// means no decision: refuse the request.
	Allow(ctx context.Context, key string, limit int) (Decision, error)
	// Close releases the limiter's connections, if any.
	Close() error
}

// Decision is the answer to one Allow call.
type Decision struct {
	Allowed bool
	// Limit is the requests per Window the key was checked against, and
	// how many it may send at once after a quiet Window.
	Limit int
	// Remaining is how many more requests would be accepted right now,
	// 0 to Limit: it falls by one per request and refills by one every
	// Window/Limit.
	Remaining int
	// Reset is when Remaining is back to Limit if no request comes.
	Reset time.Time
	// RetryAfter is, when denied, how long until one request would fit.
	RetryAfter time.Duration
}

// RetryAfterSeconds is RetryAfter rounded up to whole seconds (>= 0), the
// value of the Retry-After header.
func (d Decision) RetryAfterSeconds() int {
	if d.RetryAfter <= 0 {
		return 0
	}
	return int(math.Ceil(d.RetryAfter.Seconds()))
}

// ResetUnix is Reset rounded up to a Unix second, the value of the
// X-RateLimit-Reset header.
func (d Decision) ResetUnix() int64 {
	sec := d.Reset.Unix()
	if d.Reset.Nanosecond() > 0 {
		sec++
	}
	return sec
}

var (
	// ErrUnavailable means the shared limiter (Redis) did not answer.
	ErrUnavailable = errors.New("ratelimit: limiter unavailable")
	// ErrInvalidLimit means Allow was called with a limit below 1.
	ErrInvalidLimit = errors.New("ratelimit: limit must be at least 1 request/second")
)

// Options tune a limiter. The zero value is ready to use.
type Options struct {
	// Timeout bounds each Redis dial, read and write. 0 means 200 ms.
	Timeout time.Duration
	// KeyPrefix namespaces Redis keys. "" means "mapd:ratelimit:".
	KeyPrefix string
	// Now is the in-process limiter's clock, for tests. nil means
	// time.Now. The Redis limiter always uses the Redis server's clock so
	// that replicas agree.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 200 * time.Millisecond
	}
	if o.KeyPrefix == "" {
		o.KeyPrefix = "mapd:ratelimit:"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Open returns a limiter with default Options: "" or "memory" selects the
// in-process limiter, a "redis://" or "rediss://" URL the Redis one.
func Open(ctx context.Context, dsn string) (Limiter, error) {
	return OpenWith(ctx, dsn, Options{})
}

// OpenWith is Open with explicit Options.
func OpenWith(ctx context.Context, dsn string, opts Options) (Limiter, error) {
	opts = opts.withDefaults()
	switch {
	case dsn == "" || dsn == "memory":
		return NewLocal(opts), nil
	case strings.HasPrefix(dsn, "redis://") || strings.HasPrefix(dsn, "rediss://"):
		return newRedis(dsn, opts)
	}
	return nil, fmt.Errorf("ratelimit: unknown limiter %q (want memory or redis://...)", dsn)
}
