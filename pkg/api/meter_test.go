package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/open"
	"github.com/mapsco/maps/pkg/ratelimit"
)

func TestBearer(t *testing.T) {
	const key = "sk_abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst"
	for _, c := range []struct {
		header string
		key    string
		ok     bool
	}{
		{"Bearer " + key, key, true},
		{"bearer " + key, key, true},
		{"BEARER " + key, key, true},
		{"BeArEr x", "x", true}, // the ledger judges the key itself
		{"", "", false},
		{"Bearer", "", false},
		{"Bearer ", "", false},
		{"Bearer  " + key, "", false}, // two spaces: the key would start with one
		{"Bearer " + key + " ", "", false},
		{"Bearer " + key + "\t", "", false},
		{"Bearer sk_a b", "", false},
		{"Bearer sk_\x7f", "", false},
		{"Bearer sk_\xc3\xa9", "", false},
		{"Basic " + key, "", false},
		{"Bearer:" + key, "", false},
		{"Token " + key, "", false},
		{key, "", false},
	} {
		got, ok := bearer([]byte(c.header))
		if got != c.key || ok != c.ok {
			t.Errorf("bearer(%q) = %q, %v; want %q, %v", c.header, got, ok, c.key, c.ok)
		}
	}
}

// fakeMeter is a scripted ledger.Meter that counts its calls.
type fakeMeter struct {
	authErr, reserveErr, commitErr error
	info                           ledger.KeyInfo
	reserves, commits, releases    atomic.Int64
}

func (f *fakeMeter) Authenticate(context.Context, string) (ledger.KeyInfo, error) {
	return f.info, f.authErr
}

func (f *fakeMeter) Reserve(_ context.Context, k ledger.KeyInfo, op string, credits int64, id string) (ledger.Reservation, error) {
	if f.reserveErr != nil {
		return ledger.Reservation{}, f.reserveErr
	}
	f.reserves.Add(1)
	return ledger.Reservation{ID: 1, AccountID: k.AccountID, Operation: op, Credits: credits, RequestID: id}, nil
}

func (f *fakeMeter) Commit(context.Context, ledger.Reservation) error {
	f.commits.Add(1)
	return f.commitErr
}

func (f *fakeMeter) Release(context.Context, ledger.Reservation) error {
	f.releases.Add(1)
	return nil
}

// failingLimiter never decides.
type failingLimiter struct{}

func (failingLimiter) Allow(context.Context, string, int) (ratelimit.Decision, error) {
	return ratelimit.Decision{}, fmt.Errorf("%w: test", ratelimit.ErrUnavailable)
}
func (failingLimiter) Close() error { return nil }

func post(s *Server, path, authz, body string) *fasthttp.RequestCtx {
	ctx := &fasthttp.RequestCtx{}
	ctx.Request.Header.SetMethod("POST")
	ctx.Request.SetRequestURI(path)
	ctx.Request.Header.SetContentType("application/json")
	if authz != "" {
		ctx.Request.Header.Set("Authorization", authz)
	}
	ctx.Request.SetBodyString(body)
	s.Handle(ctx)
	return ctx
}

// TestMeteringOutcomes: each way a request ends, and what the middleware
// does with the reservation: exactly one Commit for a 200 (sent only after
// it succeeded), exactly one Release for a failure after Reserve, neither
// for a refusal before it.
func TestMeteringOutcomes(t *testing.T) {
	active := ledger.KeyInfo{KeyID: "key_1", AccountID: "acct_1", Kind: ledger.KindSecret, AccountStatus: ledger.StatusActive}
	short := &ledger.InsufficientCreditsError{AccountID: "acct_1", Balance: 3, Cost: 5}
	capped := &ledger.InsufficientCreditsError{AccountID: "acct_1", Balance: 900, Cost: 5, Cap: ledger.CapDaily, CapRemaining: 2}
	const key = "Bearer sk_secretsecretsecret"
	elev := `{"coordinates":[[1.5,42.5]]}`
	for _, c := range []struct {
		name                        string
		meter                       *fakeMeter
		limiter                     ratelimit.Limiter
		path, authz, body           string
		status                      int
		detail                      string
		reserves, commits, releases int64
	}{
		{name: "charged", meter: &fakeMeter{info: active}, body: elev, status: 200, reserves: 1, commits: 1},
		{name: "no key", meter: &fakeMeter{info: active}, authz: "-", body: elev, status: 401, detail: "Authorization: Bearer"},
		{name: "unknown key", meter: &fakeMeter{authErr: ledger.ErrUnknownKey}, body: elev, status: 401, detail: "Authorization: Bearer"},
		{name: "malformed key", meter: &fakeMeter{authErr: ledger.ErrMalformedKey}, body: elev, status: 401, detail: "checksum: was it copied whole?); send your secret API key in the Authorization header: \"Authorization: Bearer"},
		{name: "revoked key", meter: &fakeMeter{authErr: ledger.ErrRevokedKey}, body: elev, status: 401, detail: "revoked"},
		{name: "ledger down at auth", meter: &fakeMeter{authErr: fmt.Errorf("%w: x", ledger.ErrUnavailable)}, body: elev, status: 503},
		{name: "public key", meter: &fakeMeter{info: ledger.KeyInfo{KeyID: "k", AccountID: "a", Kind: ledger.KindPublic, AccountStatus: ledger.StatusActive}}, body: elev, status: 403, detail: "public"},
		{name: "suspended (cached)", meter: &fakeMeter{info: ledger.KeyInfo{KeyID: "k", AccountID: "a", Kind: ledger.KindSecret, AccountStatus: ledger.StatusSuspended}}, body: elev, status: 403, detail: "suspended"},
		{name: "suspended at reserve", meter: &fakeMeter{info: active, reserveErr: ledger.ErrAccountSuspended}, body: elev, status: 403, detail: "suspended"},
		{name: "limiter down", meter: &fakeMeter{info: active}, limiter: failingLimiter{}, body: elev, status: 503, detail: "rate limiter"},
		{name: "invalid body", meter: &fakeMeter{info: active}, body: `{"coordinates":[]}`, status: 400},
		{name: "balance short", meter: &fakeMeter{info: active, reserveErr: short}, body: elev, status: 402, detail: "balance is 3 credits and this request costs 5"},
		{name: "daily cap", meter: &fakeMeter{info: active, reserveErr: capped}, body: elev, status: 402, detail: "daily spend cap allows 2"},
		{name: "ledger down at reserve", meter: &fakeMeter{info: active, reserveErr: fmt.Errorf("%w: x", ledger.ErrUnavailable)}, body: elev, status: 503},
		{name: "ledger down at commit", meter: &fakeMeter{info: active, commitErr: fmt.Errorf("%w: x", ledger.ErrUnavailable)}, body: elev, status: 503, reserves: 1, commits: 1},
		{name: "commit refused", meter: &fakeMeter{info: active, commitErr: ledger.ErrUnknownReservation}, body: elev, status: 503, reserves: 1, commits: 1},
		// A profile the release does not hold: 400, its reservation released (issue 43).
		{name: "profile not in the release", meter: &fakeMeter{info: active}, path: "/v1/matrix", body: `{"sources":[[1.5,42.5]],"targets":[[1.5,42.5]],"profile":"pedestrian"}`, status: 400, detail: "holds car", reserves: 1, releases: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			lim := c.limiter
			if lim == nil {
				lim = ratelimit.NewLocal(ratelimit.Options{})
			}
			s, err := New(Config{Releases: fakeHolder("car"), Metering: &Metering{Meter: c.meter, Limiter: lim, DefaultRate: 1000}})
			if err != nil {
				t.Fatal(err)
			}
			path, authz := c.path, c.authz
			if path == "" {
				path = "/v1/elevation"
			}
			switch authz {
			case "":
				authz = key
			case "-":
				authz = ""
			}
			ctx := post(s, path, authz, c.body)
			body := string(ctx.Response.Body())
			if ctx.Response.StatusCode() != c.status {
				t.Fatalf("status %d, want %d: %s", ctx.Response.StatusCode(), c.status, body)
			}
			if c.status != 200 {
				var p Problem
				if err := json.Unmarshal(ctx.Response.Body(), &p); err != nil || p.Status != c.status || !strings.Contains(p.Detail, c.detail) {
					t.Errorf("problem %s (%v), want detail with %q", body, err, c.detail)
				}
			} else if !strings.Contains(body, `"credits_charged":1,`) {
				t.Errorf("body %s", body)
			}
			if strings.Contains(body, "secretsecret") {
				t.Errorf("the body echoes the key: %s", body)
			}
			if got := ctx.Response.Header.Peek("X-Credits-Remaining"); (c.status == 402) != (len(got) > 0) {
				t.Errorf("X-Credits-Remaining %q on a %d", got, c.status)
			} else if c.status == 402 && string(got) != fmt.Sprint(c.meter.reserveErr.(*ledger.InsufficientCreditsError).Balance) {
				t.Errorf("X-Credits-Remaining %q", got)
			}
			if r, cm, rl := c.meter.reserves.Load(), c.meter.commits.Load(), c.meter.releases.Load(); r != c.reserves || cm != c.commits || rl != c.releases {
				t.Errorf("reserves %d commits %d releases %d, want %d %d %d", r, cm, rl, c.reserves, c.commits, c.releases)
			}
		})
	}
}

// TestMeteringRateHeaders: the X-RateLimit-* headers on a 200, and the
// four headers of spec §7 on a 429, which costs nothing.
func TestMeteringRateHeaders(t *testing.T) {
	fm := &fakeMeter{info: ledger.KeyInfo{KeyID: "key_1", AccountID: "acct_1", Kind: ledger.KindSecret, AccountStatus: ledger.StatusActive, RateLimit: 10}}
	s, _ := New(Config{Releases: fakeHolder("car"), Metering: &Metering{Meter: fm, Limiter: ratelimit.NewLocal(ratelimit.Options{}), DefaultRate: 1000}})
	var ok, limited int
	for i := range 12 {
		ctx := post(s, "/v1/elevation", "Bearer sk_x", `{"coordinates":[[1.5,42.5]]}`)
		h := &ctx.Response.Header
		if string(h.Peek("X-RateLimit-Limit")) != "10" || string(h.Peek("X-RateLimit-Remaining")) != strconv.Itoa(max(0, 9-i)) || len(h.Peek("X-RateLimit-Reset")) == 0 {
			t.Errorf("%d: headers %s", ctx.Response.StatusCode(), h.String())
		}
		switch ctx.Response.StatusCode() {
		case 200:
			ok++
		case 429:
			limited++
			if string(h.Peek("Retry-After")) != "1" || string(h.Peek("X-RateLimit-Remaining")) != "0" {
				t.Errorf("429 headers %s", h.String())
			}
		}
	}
	// 10/s: ten requests at once (Limit says 10), then 429s.
	if ok != 10 || limited != 2 || fm.reserves.Load() != 10 {
		t.Errorf("%d accepted, %d limited, %d reserved; want 10, 2, 10", ok, limited, fm.reserves.Load())
	}
}

// BenchmarkMeteredElevation measures what metering adds to a request, at
// the handler (s.Handle, no TCP): a one-point elevation (the cheapest
// compute) unmetered, then authenticated, rate-limited and charged against
// the embedded ledger, PostgreSQL, and either with the Redis limiter, with
// 1 and 64 requests in flight. ns/op is wall time per request across all
// goroutines (requests/s = 1e9 / ns/op); compare with "none".
func BenchmarkMeteredElevation(b *testing.B) {
	body := `{"coordinates":[[1.5,42.5]]}`
	for _, be := range []string{"none", "bolt", "postgres", "bolt+redis", "postgres+redis"} {
		for _, inFlight := range []int{1, 64} {
			b.Run(fmt.Sprintf("%s/inflight=%d", be, inFlight), func(b *testing.B) {
				cfg := Config{Releases: fakeHolder("car")}
				key := ""
				if be != "none" {
					m, k := benchMetering(b, be)
					cfg.Metering, key = m, "Bearer "+k
				}
				s, err := New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				b.SetParallelism(max(1, inFlight/2)) // 2 cores here
				b.ResetTimer()
				defer benchcpu.Report(b)()
				b.RunParallel(func(pb *testing.PB) {
					ctx := &fasthttp.RequestCtx{}
					ctx.Request.Header.SetMethod("POST")
					ctx.Request.SetRequestURI("/v1/elevation")
					ctx.Request.Header.SetContentType("application/json")
					if key != "" {
						ctx.Request.Header.Set("Authorization", key)
					}
					ctx.Request.SetBodyString(body)
					for pb.Next() {
						ctx.Response.Reset()
						ctx.ResetUserValues()
						s.Handle(ctx)
						if ctx.Response.StatusCode() != 200 {
							b.Fatalf("%d %s", ctx.Response.StatusCode(), ctx.Response.Body())
						}
					}
				})
			})
		}
	}
}

// benchMetering opens a ledger (a fresh file, or a fresh PostgreSQL schema
// dropped afterwards) and a limiter, and funds one account.
func benchMetering(b *testing.B, backend string) (*Metering, string) {
	ctx := context.Background()
	dsn := filepath.Join(b.TempDir(), "ledger.db")
	if strings.HasPrefix(backend, "postgres") {
		dsn = benchSchema(b)
	}
	store, err := open.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	lim := ratelimit.Limiter(ratelimit.NewLocal(ratelimit.Options{}))
	if strings.HasSuffix(backend, "+redis") {
		var rb [6]byte
		_, _ = rand.Read(rb[:])
		if lim, err = ratelimit.OpenWith(ctx, "redis://127.0.0.1:6379/0", ratelimit.Options{KeyPrefix: "bench:api:" + hex.EncodeToString(rb[:]) + ":"}); err != nil {
			b.Fatal(err)
		}
		if _, err := lim.Allow(ctx, "probe", 1); err != nil {
			b.Fatalf("Redis on 127.0.0.1:6379 is unreachable: %v", err)
		}
		b.Cleanup(func() { lim.Close() })
	}
	acct, err := store.CreateAccount(ctx, 1<<40, &ledger.Caps{})
	if err != nil {
		b.Fatal(err)
	}
	return &Metering{Meter: store, Limiter: lim, DefaultRate: 1 << 30}, acct.Key.Secret.Reveal()
}

func benchSchema(b *testing.B) string {
	const admin = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		b.Fatalf("PostgreSQL on 127.0.0.1:5432 is unreachable: %v", err)
	}
	defer conn.Close(context.Background())
	var rb [6]byte
	_, _ = rand.Read(rb[:])
	name := "api_bench_" + hex.EncodeToString(rb[:])
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if c, err := pgx.Connect(ctx, admin); err == nil {
			c.Exec(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE")
			c.Close(ctx)
		}
	})
	return admin + "&search_path=" + name
}
