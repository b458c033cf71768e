package api

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/open"
	"github.com/mapsco/maps/pkg/ratelimit"
)

// postKey is post with an Idempotency-Key.
func postKey(s *Server, path, authz, key, body string) *fasthttp.RequestCtx {
	ctx := &fasthttp.RequestCtx{}
	ctx.Request.Header.SetMethod("POST")
	ctx.Request.SetRequestURI(path)
	ctx.Request.Header.SetContentType("application/json")
	ctx.Request.Header.Set("Authorization", authz)
	if key != "" {
		ctx.Request.Header.Set(HeaderIdempotencyKey, key)
	}
	ctx.Request.SetBodyString(body)
	s.Handle(ctx)
	return ctx
}

// TestIdempotencyKey runs requests with keys through the handler against a
// real embedded ledger: a retry gets the first answer byte for byte and is
// charged once; another body is a 409; a bad key a 400; a running key a
// 409 with Retry-After; a failed request is computed again.
func TestIdempotencyKey(t *testing.T) {
	ctx := context.Background()
	store, err := open.Open(ctx, filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	idem, err := ledger.OpenIdempotency(ctx, store, ledger.IdempotencyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	acct, _ := store.CreateAccount(ctx, 100, &ledger.Caps{})
	authz := "Bearer " + acct.Key.Secret.Reveal()
	s, _ := New(Config{Releases: fakeHolder("car"), Metering: &Metering{Meter: store, Limiter: ratelimit.NewLocal(ratelimit.Options{}),
		DefaultRate: 1000, Idempotency: idem}})
	balance := func() int64 {
		a, err := store.GetAccount(ctx, acct.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		return a.Balance
	}
	elev := `{"coordinates":[[1.5,42.5]]}`

	first := postKey(s, "/v1/elevation", authz, "order-42", elev)
	if first.Response.StatusCode() != 200 || len(first.Response.Header.Peek(HeaderIdempotentReplayed)) > 0 {
		t.Fatalf("first: %d %s", first.Response.StatusCode(), first.Response.Body())
	}
	retry := postKey(s, "/v1/elevation", authz, "order-42", elev)
	if retry.Response.StatusCode() != 200 || string(retry.Response.Body()) != string(first.Response.Body()) ||
		string(retry.Response.Header.Peek(HeaderIdempotentReplayed)) != "true" {
		t.Fatalf("retry: %d %s, want the first answer %s replayed", retry.Response.StatusCode(), retry.Response.Body(), first.Response.Body())
	}
	if b := balance(); b != 99 {
		t.Errorf("balance %d after a request and its retry, want 99", b)
	}
	for _, c := range []struct {
		name, path, key, body string
		status                int
		typ                   string
	}{
		{"another body", "/v1/elevation", "order-42", `{"coordinates":[[1.6,42.5]]}`, 409, "idempotency-key-reused"},
		{"another operation", "/v1/directions", "order-42", `{"coordinates":[[1.5,42.5],[1.6,42.5]]}`, 409, "idempotency-key-reused"},
		{"a key too long", "/v1/elevation", strings.Repeat("k", 256), elev, 400, "invalid-request"},
		{"a control character", "/v1/elevation", "a\tb", elev, 400, "invalid-request"},
	} {
		ctx := postKey(s, c.path, authz, c.key, c.body)
		var p Problem
		json.Unmarshal(ctx.Response.Body(), &p)
		if ctx.Response.StatusCode() != c.status || p.Type != ErrorsBase+c.typ {
			t.Errorf("%s: %d %s", c.name, ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
	// A key whose request is running.
	running := ledger.Claim{AccountID: acct.AccountID, Key: "running", Fingerprint: fingerprint("elevation", []byte(elev)), RequestID: "req_other"}
	if r, err := idem.Begin(ctx, running); r != nil || err != nil {
		t.Fatal(r, err)
	}
	busy := postKey(s, "/v1/elevation", authz, "running", elev)
	if busy.Response.StatusCode() != 409 || string(busy.Response.Header.Peek("Retry-After")) != "1" {
		t.Errorf("a running key: %d %s", busy.Response.StatusCode(), busy.Response.Body())
	}
	// A request that fails (a profile the release does not hold) costs
	// nothing, and its retry runs again.
	matrix := `{"sources":[[1.5,42.5]],"targets":[[1.5,42.5]],"profile":"pedestrian"}`
	for range 2 {
		if ctx := postKey(s, "/v1/matrix", authz, "failing", matrix); ctx.Response.StatusCode() != 400 {
			t.Errorf("failing request: %d %s", ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
	if b := balance(); b != 99 {
		t.Errorf("balance %d after failures, want 99", b)
	}
	if fp := fingerprint("elevation", []byte(elev)); fp == sha256.Sum256([]byte(elev)) {
		t.Error("the fingerprint ignores the operation")
	}
}

// BenchmarkIdempotencyKey is what an Idempotency-Key adds to a metered
// one-point elevation on the embedded ledger (a claim in memory, an fsynced
// bbolt transaction for the answer), with 8 requests in flight: "none"
// sends no key, "new" a fresh key each time, "replay" the same key (after
// the first, every request is a replay).
func BenchmarkIdempotencyKey(b *testing.B) {
	for _, mode := range []string{"none", "new", "replay"} {
		b.Run(mode, func(b *testing.B) {
			ctx := context.Background()
			store, err := open.Open(ctx, filepath.Join(b.TempDir(), "ledger.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close()
			idem, _ := ledger.OpenIdempotency(ctx, store, ledger.IdempotencyOptions{})
			acct, _ := store.CreateAccount(ctx, 1<<40, &ledger.Caps{})
			s, _ := New(Config{Releases: fakeHolder("car"), Metering: &Metering{Meter: store,
				Limiter: ratelimit.NewLocal(ratelimit.Options{}), DefaultRate: 1 << 30, Idempotency: idem}})
			authz := "Bearer " + acct.Key.Secret.Reveal()
			var seq atomic.Int64
			b.SetParallelism(4) // 8 in flight on 2 cores
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					key := ""
					switch mode {
					case "new":
						key = "k" + strconv.FormatInt(seq.Add(1), 10)
					case "replay":
						key = "same"
					}
					ctx := postKey(s, "/v1/elevation", authz, key, `{"coordinates":[[1.5,42.5]]}`)
					if c := ctx.Response.StatusCode(); c != 200 && c != 409 {
						b.Fatalf("%d %s", c, ctx.Response.Body())
					}
				}
			})
		})
	}
}
