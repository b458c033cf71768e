package ratelimit

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

const redisURL = "redis://127.0.0.1:6379/0"

const redisStartHint = `start it with: redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log`

// redisPrefix checks that Redis answers (failing the test if not) and
// returns a key prefix unique to the test, whose keys are deleted after it.
func redisPrefix(t *testing.T) string {
	t.Helper()
	opts, _ := redis.ParseURL(redisURL)
	client := redis.NewClient(opts)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := client.Ping(ctx).Err(); err != nil {
		client.Close()
		t.Fatalf("Redis on 127.0.0.1:6379 is unreachable (%v); %s", err, redisStartHint)
	}
	var b [6]byte
	_, _ = crand.Read(b[:])
	prefix := "test:ratelimit:" + hex.EncodeToString(b[:]) + ":"
	t.Cleanup(func() {
		defer client.Close()
		ctx := context.Background()
		keys, err := client.Keys(ctx, prefix+"*").Result()
		if err == nil && len(keys) > 0 {
			err = client.Del(ctx, keys...).Err()
		}
		if err != nil {
			t.Errorf("cleaning up %s*: %v", prefix, err)
		}
	})
	return prefix
}

// patient is the Redis timeout of tests that check what a limit allows,
// not how fast Redis answers: on a loaded machine one of a flood's thousands
// of calls took over the default 200 ms (a CI run beside HTTP benchmarks),
// and the test failed on ErrUnavailable.
const patient = 10 * time.Second

func openLimiter(t *testing.T, dsn string, opts Options) Limiter {
	t.Helper()
	l, err := OpenWith(context.Background(), dsn, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// drain spends the key's burst, so that whatever is accepted next is
// what the rate refills.
func drain(t *testing.T, l Limiter, key string, limit int) {
	t.Helper()
	for {
		dec, err := l.Allow(context.Background(), key, limit)
		if err != nil {
			t.Fatal(err)
		}
		if !dec.Allowed {
			return
		}
	}
}

// flood has each limiter's client ask for one key as fast as it can
// until d after start, and returns how many were accepted and refused and
// the time since start. Every decision is checked for headers.
func flood(t *testing.T, limiters []Limiter, key string, limit int, start time.Time, d time.Duration) (accepted, refused int64, took time.Duration) {
	var ok, no atomic.Int64
	var wg sync.WaitGroup
	for _, l := range limiters {
		wg.Go(func() {
			for time.Since(start) < d {
				dec, err := l.Allow(context.Background(), key, limit)
				if err != nil {
					t.Error(err)
					return
				}
				checkHeaders(t, dec, limit)
				if dec.Allowed {
					ok.Add(1)
				} else {
					no.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return ok.Load(), no.Load(), time.Since(start)
}

// paced asks for a drained key n times, request i no earlier than
// (2i+1)/limit s after the start: half the rate, so that however slow the
// machine (which only makes requests later), the limiter has a token for
// every one. It returns how many were refused, which must be none.
func paced(t *testing.T, limiters []Limiter, key string, limit, n int) (refused int) {
	period := time.Second / time.Duration(limit)
	start := time.Now()
	for i := range n {
		time.Sleep(time.Until(start.Add(time.Duration(2*i+1) * period)))
		dec, err := limiters[i%len(limiters)].Allow(context.Background(), key, limit)
		if err != nil {
			t.Fatal(err)
		}
		checkHeaders(t, dec, limit)
		if !dec.Allowed {
			refused++
		}
	}
	return refused
}

func checkHeaders(t *testing.T, d Decision, limit int) {
	switch {
	case d.Limit != limit:
		t.Errorf("Limit %d, want %d", d.Limit, limit)
	case d.Remaining < 0 || d.Remaining >= limit || (!d.Allowed && d.Remaining != 0):
		t.Errorf("Remaining %d with Allowed %v", d.Remaining, d.Allowed)
	case !d.Allowed && (d.RetryAfter <= 0 || d.RetryAfterSeconds() < 1):
		t.Errorf("denied with RetryAfter %v", d.RetryAfter)
	case time.Until(d.Reset) > 2*time.Second || time.Since(d.Reset) > 2*time.Second:
		t.Errorf("Reset %v is not near now", d.Reset)
	}
}

// checkRateBounds holds limiters sharing one key to what a limiter must do
// at any machine speed: from a drained key, never accept more than the rate
// refills over the time measured (plus the one request in flight at the
// start); and at half the rate, refuse nothing. Whether a flood is refused
// at all depends on how fast this machine can send, so it is only logged:
// the exact counts are TestLocalAcceptedRate's, on a fake clock.
func checkRateBounds(t *testing.T, limiters []Limiter, limit int, d time.Duration) {
	// The time is counted from before the drain, whose last (refused)
	// decision left the key with no token: from then on the rate alone refills it.
	start := time.Now()
	drain(t, limiters[0], "key_rate", limit)
	ok, no, took := flood(t, limiters, "key_rate", limit, start, d)
	t.Logf("flood for %v against %d/s: %d accepted (%.1f/s), %d refused", took.Round(time.Millisecond), limit, ok, float64(ok)/took.Seconds(), no)
	if most := int64(took.Seconds()*float64(limit)) + 1; ok > most {
		t.Errorf("flood: %d accepted in %v, want at most %d at %d/s", ok, took, most, limit)
	}
	drain(t, limiters[0], "key_paced", limit)
	n := int(d.Seconds() * float64(limit) / 2)
	if refused := paced(t, limiters, "key_paced", limit, n); refused != 0 {
		t.Errorf("at half the rate: %d of %d refused, want none", refused, n)
	}
}

// TestLocalAcceptedRate counts the in-process limiter's decisions on a fake
// clock: from a drained key, requests offered faster than the limit are
// accepted at exactly the limit (one request of rounding), and requests
// offered slower are all accepted (arrivals never closer than 1/limit);
// several goroutines at one instant share
// exactly the tokens there are.
func TestLocalAcceptedRate(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	const seconds = 10
	// Limits of 2 and more: a refused arrival's wait (at most one gap
	// between arrivals, 1.2/offered of a token's interval) fits in the
	// window's second token, so the rate is met exactly. A 1/s key has one
	// token and no slack: each acceptance may come up to a gap late.
	for _, limit := range []int{1, 2, 7, 50, 1000} {
		for _, offered := range []float64{0.5, 0.8, 2, 10} { // times the limit
			clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
			l := NewLocal(Options{Now: clock.Now})
			drain(t, l, "k", limit)
			start := clock.Now()
			mean := float64(time.Second) / (offered * float64(limit))
			var ok, no int
			for {
				// Arrivals jittered ±20 % around the offered rate.
				clock.Advance(time.Duration(mean * (0.8 + 0.4*rng.Float64())))
				if clock.Now().Sub(start) > seconds*time.Second {
					break
				}
				d, err := l.Allow(ctx, "k", limit)
				if err != nil {
					t.Fatal(err)
				}
				if d.Allowed {
					ok++
				} else {
					no++
				}
			}
			name := fmt.Sprintf("limit %d/s offered %.1fx", limit, offered)
			least := seconds*limit - 1
			if limit == 1 {
				least = int(seconds/(1+1.2/offered)) - 1
			}
			switch {
			case offered < 1 && no != 0:
				t.Errorf("%s: %d refused below the rate", name, no)
			case offered > 1 && (ok < least || ok > seconds*limit+1):
				t.Errorf("%s: %d accepted in %d s, want %d to %d", name, ok, seconds, least, seconds*limit+1)
			case offered > 1 && no == 0:
				t.Errorf("%s: nothing refused above the rate", name)
			}
		}
	}
	// 8 goroutines × 100 requests at the same instant, one second after the
	// key drained: exactly the limit's worth of tokens is handed out.
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	l := NewLocal(Options{Now: clock.Now})
	drain(t, l, "k", 50)
	clock.Advance(time.Second)
	var ok atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if d, _ := l.Allow(ctx, "k", 50); d.Allowed {
					ok.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if ok.Load() != 50 {
		t.Errorf("800 requests at one instant, a second after draining a 50/s key: %d accepted, want 50", ok.Load())
	}
}

// TestLocalRateBounds: the real clock, the bounds that hold at any speed.
func TestLocalRateBounds(t *testing.T) {
	checkRateBounds(t, []Limiter{openLimiter(t, "memory", Options{})}, 50, 2*time.Second)
}

// TestFirst200Requests: 200 requests at once against 50/s: the first 50
// pass (X-RateLimit-Limit says 50), then 429s but for what refills.
func TestFirst200Requests(t *testing.T) {
	for _, dsn := range []string{"memory", redisURL} {
		t.Run(dsn, func(t *testing.T) {
			opts := Options{}
			if dsn == redisURL {
				opts = Options{KeyPrefix: redisPrefix(t), Timeout: patient}
			}
			l := openLimiter(t, dsn, opts)
			var allowed int
			start := time.Now()
			for i := range 200 {
				d, err := l.Allow(context.Background(), "key_burst", 50)
				if err != nil {
					t.Fatal(err)
				}
				// Remaining is 49-i, or more if the requests took over 1/50 s
				// (the window refills as they go).
				if i < 50 && (!d.Allowed || d.Remaining < 49-i || d.Remaining > 49) {
					t.Errorf("request %d of the first 50: %+v, want allowed with Remaining at least %d", i+1, d, 49-i)
				}
				if d.Allowed {
					allowed++
				} else if d.Remaining != 0 || d.RetryAfterSeconds() != 1 {
					t.Errorf("denial %+v: want Remaining 0, Retry-After 1", d)
				}
			}
			if most := 50 + int(time.Since(start).Seconds()*50) + 1; allowed < 50 || allowed > most {
				t.Errorf("%d of 200 instant requests allowed, want the burst of 50 plus what 50/s refills (at most %d)", allowed, most)
			}
		})
	}
}

// TestRedisTwoReplicasShareLimit: two limiters (two connection pools, as
// two replicas) enforce one limit together.
func TestRedisTwoReplicasShareLimit(t *testing.T) {
	prefix := redisPrefix(t)
	a := openLimiter(t, redisURL, Options{KeyPrefix: prefix, Timeout: patient})
	b := openLimiter(t, redisURL, Options{KeyPrefix: prefix, Timeout: patient})
	checkRateBounds(t, []Limiter{a, b}, 50, 2*time.Second)
}

// TestRedisUnavailable: a Redis that refuses or never answers yields
// ErrUnavailable fast, never an allow, and the cause stays visible to
// errors.Is and errors.As.
func TestRedisUnavailable(t *testing.T) {
	timeout := func(err error) bool {
		var ne net.Error
		return errors.As(err, &ne) && ne.Timeout()
	}
	for name, c := range map[string]struct {
		dsn   string
		cause func(error) bool
	}{
		"refused":   {"redis://127.0.0.1:1/0", func(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }},
		"no answer": {"redis://" + silentServer(t) + "/0", timeout},
	} {
		t.Run(name, func(t *testing.T) {
			l := openLimiter(t, c.dsn, Options{})
			start := time.Now()
			d, err := l.Allow(context.Background(), "key_down", 50)
			if !errors.Is(err, ErrUnavailable) || d.Allowed {
				t.Fatalf("Allow = %+v, %v; want ErrUnavailable and no allow", d, err)
			}
			if !c.cause(err) {
				t.Errorf("the cause is hidden from errors.Is/As: %v", err)
			}
			if elapsed := time.Since(start); elapsed > time.Second {
				t.Errorf("took %v to fail", elapsed)
			}
		})
	}
}

// silentServer accepts TCP connections and never answers, like a hung Redis.
func silentServer(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

func TestOpenRejectsUnknownScheme(t *testing.T) {
	if _, err := Open(context.Background(), "memcached://x"); err == nil {
		t.Error("Open accepted memcached://")
	}
}

// TestRedisURLErrorHidesPassword: a Redis URL that does not parse is
// reported without the URL, which may carry a password into the log.
func TestRedisURLErrorHidesPassword(t *testing.T) {
	for _, dsn := range []string{
		"redis://user:s3cretpass@127.0.0.1:notaport/0",
		"redis://:s3cretpass@127.0.0.1:6379/notadb",
		"redis://user:s3cretpass@127.0.0.1:6379/0\x7f",
	} {
		_, err := Open(context.Background(), dsn)
		if err == nil {
			t.Fatalf("Open(%q) = nil error", dsn)
		}
		if strings.Contains(err.Error(), "s3cretpass") {
			t.Errorf("Open(%q) error quotes the password: %v", dsn, err)
		}
	}
}
