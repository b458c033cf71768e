package api

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ratelimit"
)

// TestPanicAnswers500AndCharges nothing: an operation that panics (here a
// release whose car router is missing, so directions dereference nil) is
// answered 500 with a problem, its hold is released and never committed,
// one ERROR line names the request without its key, and the server goes
// on answering.
func TestPanicAnswers500AndChargesNothing(t *testing.T) {
	var log bytes.Buffer
	fm := &fakeMeter{info: ledger.KeyInfo{KeyID: "key_1", AccountID: "acct_1", Kind: ledger.KindSecret, AccountStatus: ledger.StatusActive, RateLimit: 1000}}
	s, err := New(Config{
		Releases: fakeHolder("car"),
		Metering: &Metering{Meter: fm, Limiter: ratelimit.NewLocal(ratelimit.Options{}), DefaultRate: 1000},
		Log:      slog.New(slog.NewTextHandler(&log, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	const key = "Bearer sk_panicking_key_never_logged"
	for range 3 {
		ctx := post(s, "/v1/directions", key, `{"coordinates":[[1.5,42.5],[1.6,42.55]],"alternatives":0}`)
		if got := ctx.Response.StatusCode(); got != 500 {
			t.Fatalf("status %d, want 500: %s", got, ctx.Response.Body())
		}
		if ct := string(ctx.Response.Header.ContentType()); ct != "application/problem+json" {
			t.Errorf("Content-Type %q", ct)
		}
	}
	if r, c := fm.releases.Load(), fm.commits.Load(); r != 3 || c != 0 {
		t.Errorf("%d holds released and %d committed, want 3 and 0", r, c)
	}
	if n := strings.Count(log.String(), "operation panicked"); n != 3 {
		t.Errorf("%d panic lines, want 3:\n%s", n, log.String())
	}
	if strings.Contains(log.String(), "sk_panicking") {
		t.Errorf("the key reached the log:\n%s", log.String())
	}
	if ctx := post(s, "/v1/elevation", key, `{"coordinates":[[1.5,42.5]]}`); ctx.Response.StatusCode() != 200 {
		t.Errorf("after the panics, elevation answered %d: %s", ctx.Response.StatusCode(), ctx.Response.Body())
	}
}
