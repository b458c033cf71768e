package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"
)

// gcraScript runs one GCRA step atomically in Redis, on the Redis clock
// (so replicas with skewed clocks agree), in microseconds. The key holds
// the TAT and expires once drained (a missing key is a drained one).
// Lua numbers are doubles: µs since 1970 (~1.8e15) are exact below 2^53,
// and string.format('%d') keeps them out of exponent notation.
//
// KEYS[1] key; ARGV[1] interval µs; ARGV[2] span µs (limit * interval).
// Returns {allowed, remaining, reset_in µs, retry_in µs, now µs}.
const gcraScript = `
local interval = tonumber(ARGV[1])
local span = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or 0) or 0
if tat < now then tat = now end
local newtat = tat + interval
if newtat - now > span then
	return {0, 0, tat - now, newtat - span - now, now}
end
redis.call('SET', KEYS[1], string.format('%d', newtat), 'PX', math.ceil((newtat - now) / 1000) + 1000)
return {1, math.floor((span - (newtat - now)) / interval), newtat - now, 0, now}
`

// Redis is the limiter shared by replicas. Each Allow is one EVALSHA round
// trip; timeouts are short and retries off, so a Redis outage turns into
// ErrUnavailable within about Options.Timeout.
type Redis struct {
	client *redis.Client
	script *redis.Script
	opts   Options
	addr   string
}

func newRedis(dsn string, opts Options) (*Redis, error) {
	ro, err := redis.ParseURL(dsn)
	if err != nil {
		// Not the parse error itself: net/url's quotes the whole URL,
		// password and all, and it would reach the log. Its inner error
		// names only the part that failed.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("ratelimit: parsing the Redis URL (not quoted, it may hold a password): %v", err)
	}
	query := url.Values{}
	if u, err := url.Parse(dsn); err == nil {
		query = u.Query()
	}
	if !query.Has("dial_timeout") {
		ro.DialTimeout = opts.Timeout
	}
	if !query.Has("read_timeout") {
		ro.ReadTimeout = opts.Timeout
	}
	if !query.Has("write_timeout") {
		ro.WriteTimeout = opts.Timeout
	}
	if !query.Has("pool_timeout") {
		ro.PoolTimeout = opts.Timeout
	}
	if !query.Has("dialer_retries") {
		ro.DialerRetries = 1 // one dial attempt per call: fail within DialTimeout
	}
	if !query.Has("max_retries") {
		ro.MaxRetries = -1 // a retry would double the time to a 503
	}
	ro.ContextTimeoutEnabled = true
	return &Redis{client: redis.NewClient(ro), script: redis.NewScript(gcraScript), opts: opts, addr: ro.Addr}, nil
}

// Allow implements Limiter.
func (l *Redis) Allow(ctx context.Context, key string, limit int) (Decision, error) {
	r, err := newRate(limit, time.Microsecond)
	if err != nil {
		return Decision{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*l.opts.Timeout)
	defer cancel()
	res, err := l.script.Run(ctx, l.client, []string{l.opts.KeyPrefix + key}, r.interval, r.span).Int64Slice()
	if err != nil {
		return Decision{}, fmt.Errorf("%w: rate limit check on Redis %s: %w", ErrUnavailable, l.addr, err)
	}
	if len(res) != 5 {
		return Decision{}, fmt.Errorf("%w: rate limit script on Redis %s returned %d values", ErrUnavailable, l.addr, len(res))
	}
	v := verdict{allowed: res[0] == 1, remaining: res[1], resetIn: res[2], retryIn: res[3]}
	return v.decision(limit, time.UnixMicro(res[4]), time.Microsecond), nil
}

// Close closes the connection pool.
func (l *Redis) Close() error {
	if err := l.client.Close(); err != nil {
		return fmt.Errorf("ratelimit: closing Redis %s: %w", l.addr, err)
	}
	return nil
}
