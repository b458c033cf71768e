// Package ratelimit enforces per-key request rates: N requests per second,
// all of which may come at once, in process (the default) or shared by
// several mapd replicas through Redis.
//
// # Algorithm: GCRA
//
// Both limiters run the generic cell rate algorithm (GCRA, a "virtual
// scheduling" leaky bucket). For a limit of N requests per Window (1 s)
// each request costs an emission interval T = Window/N. The only state per
// key is the theoretical arrival time TAT: when the key's backlog would
// have drained. A request at time now is allowed iff
// max(TAT, now) + T - now <= N*T = Window. An allowed request moves TAT to
// max(TAT, now) + T; a denied one changes nothing. In bucket terms: the
// bucket holds N requests and refills at one every T. So a quiet key may
// send N requests at once (the burst is the limit), and a busy one gets N
// per second: over any interval of length D a key gets at most N*D + N
// requests, and exactly N per second in the long run. A missing key is the
// same as a drained one, so state can be expired or swept freely.
//
// # Headers (api-spec §7)
//
// Decision maps onto the response headers the middleware sends on every
// metered response, and all three count the same thing over the same
// window: X-RateLimit-Limit = Limit (N, requests per 1-second window, and
// the most a key may send at once); X-RateLimit-Remaining = Remaining
// (requests that would be accepted right now, 0 to N: it falls by one per
// request and refills by one every T); X-RateLimit-Reset = ResetUnix()
// (the Unix second by which Remaining is back to N if no request comes).
// A 429 adds Retry-After = RetryAfterSeconds(): how long until one request
// fits (T at most), rounded up to whole seconds, so 1 for any limit of at
// least 1 per second.
//
// # Failure
//
// A limiter never allows a request it could not decide on: if Redis does
// not answer within Options.Timeout (default 200 ms), Allow returns an error
// wrapping ErrUnavailable and the server answers 503.
//
// # Concurrency and lifetimes
//
// Limiters are safe for concurrent use and live until Close. The key passed
// to Allow is copied when stored; pass a non-secret identifier such as the
// ledger key id, never the API key itself.
package ratelimit
