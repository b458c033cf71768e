package postgres

import (
	"errors"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

func TestPostgresIdempotency(t *testing.T) { ledgertest.RunIdempotencyContract(t, openPostgresTest) }

// TestPostgresIdempotencyTakeover: a claim whose request holds no credits
// is taken over after the lease; one whose request holds credits is not,
// and the first request's Complete then fails, so it cannot be charged.
func TestPostgresIdempotencyTakeover(t *testing.T) {
	f := ledgertest.NewIdemFixture(t, openPostgresTest)
	stalled := f.Claim("k", "body")
	f.Begin(t, stalled)
	f.Clock.Set(f.Clock.Now().Add(2 * time.Minute))
	second := f.Claim("k", "body")
	if r, err := f.Begin(t, second); r != nil || err != nil {
		t.Fatalf("after the lease: %v %v, want a takeover", r, err)
	}
	if err := f.Idem.Complete(bg, stalled, []byte("late")); !errors.Is(err, ledger.ErrIdempotencyInProgress) {
		t.Fatalf("the stalled request's Complete: %v, want ErrIdempotencyInProgress", err)
	}
	if _, err := f.Store.Reserve(bg, f.Key, "directions", 1, second.RequestID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Begin(t, f.Claim("k", "body")); !errors.Is(err, ledger.ErrIdempotencyInProgress) {
		t.Fatalf("while its request holds credits, within the lease: %v, want ErrIdempotencyInProgress", err)
	}
	// Past the lease the request is dead (its mapd was killed): the key is
	// taken over and the hold voided, so the dead request cannot commit.
	before, _ := f.Store.GetAccount(bg, f.Key.AccountID)
	f.Clock.Set(f.Clock.Now().Add(2 * time.Minute))
	third := f.Claim("k", "body")
	if r, err := f.Begin(t, third); r != nil || err != nil {
		t.Fatalf("while a dead request holds credits, past the lease: %v %v, want a takeover", r, err)
	}
	after, _ := f.Store.GetAccount(bg, f.Key.AccountID)
	if after.Held != before.Held-1 {
		t.Errorf("the dead request's hold: held %d -> %d; want it given back", before.Held, after.Held)
	}
	f.Serve(t, third, "answer")
	if a, _ := f.Store.GetAccount(bg, f.Key.AccountID); a.Usage.Requests != 1 {
		t.Errorf("%d requests charged, want the takeover's only", a.Usage.Requests)
	}
}
