// Package ratelimit enforces per-key request rates: N requests per second
// with a short burst, in process (the default) or shared by several mapd
// replicas through Redis.
//
// # Algorithm: GCRA
//
// Both limiters run the generic cell rate algorithm (GCRA, a "virtual
// scheduling" leaky bucket). For a limit of N requests/second each request
// costs an emission interval T = 1s/N. The only state per key is the
// theoretical arrival time TAT: when the key's backlog would have drained.
// A request at time now is allowed iff max(TAT, now) + T - now <= B*T, where
// B is the burst: the number of requests that may arrive at once,
// B = max(1, ceil(N * BurstWindow)) with BurstWindow = 100 ms by default
// (5 requests for 50/s). An allowed request moves TAT to max(TAT, now) + T;
// a denied one changes nothing. Over any interval of length D a key gets at
// most N*D + B requests, so the accepted rate converges to N quickly (at
// most 3.3% above it over 3 s at 50/s). A missing key is the same as a
// drained one, so state can be expired or swept freely.
//
// # Headers (api-spec §7)
//
// Decision maps onto the response headers the middleware sends on every
// response: X-RateLimit-Limit = Limit (requests per 1-second window),
// X-RateLimit-Remaining = Remaining (requests that would be accepted right
// now, at most B), X-RateLimit-Reset = ResetUnix() (the Unix second by which
// the key is back to its full burst), and on 429 Retry-After =
// RetryAfterSeconds() (RetryAfter rounded up to whole seconds, >= 0).
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
