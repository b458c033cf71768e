package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"math"
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
	_, _ = rand.Read(b[:])
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

func openLimiter(t *testing.T, dsn string, opts Options) Limiter {
	t.Helper()
	l, err := OpenWith(context.Background(), dsn, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// measureRate drains the key's burst, then has each limiter's client send
// requests for one key as fast as it can for d, and returns accepted
// requests per second and how many were denied. Every decision is checked
// for headers.
func measureRate(t *testing.T, limiters []Limiter, limit int, d time.Duration) (perSecond float64, denied int64) {
	var accepted, refused atomic.Int64
	var wg sync.WaitGroup
	for {
		dec, err := limiters[0].Allow(context.Background(), "key_rate", limit)
		if err != nil {
			t.Fatal(err)
		}
		if !dec.Allowed {
			break
		}
	}
	start := time.Now()
	for _, l := range limiters {
		wg.Go(func() {
			for time.Since(start) < d {
				dec, err := l.Allow(context.Background(), "key_rate", limit)
				if err != nil {
					t.Error(err)
					return
				}
				checkHeaders(t, dec, limit)
				if dec.Allowed {
					accepted.Add(1)
				} else {
					refused.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return float64(accepted.Load()) / time.Since(start).Seconds(), refused.Load()
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

func checkRate(t *testing.T, got float64, denied int64, limit int) {
	t.Logf("accepted %.1f requests/s against %d/s; %d denied", got, limit, denied)
	if math.Abs(got-float64(limit)) > 0.1*float64(limit) {
		t.Errorf("accepted %.1f/s, want %d/s within 10%%", got, limit)
	}
	if denied == 0 {
		t.Errorf("no request was denied")
	}
}

func TestLocalAcceptedRate(t *testing.T) {
	l := openLimiter(t, "memory", Options{})
	got, denied := measureRate(t, []Limiter{l}, 50, 3*time.Second)
	checkRate(t, got, denied, 50)
}

// TestFirst200Requests: 200 requests at once against 50/s: the first 50
// pass (X-RateLimit-Limit says 50), then 429s but for what refills.
func TestFirst200Requests(t *testing.T) {
	for _, dsn := range []string{"memory", redisURL} {
		t.Run(dsn, func(t *testing.T) {
			opts := Options{}
			if dsn == redisURL {
				opts.KeyPrefix = redisPrefix(t)
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
	a := openLimiter(t, redisURL, Options{KeyPrefix: prefix})
	b := openLimiter(t, redisURL, Options{KeyPrefix: prefix})
	got, denied := measureRate(t, []Limiter{a, b}, 50, 3*time.Second)
	checkRate(t, got, denied, 50)
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
