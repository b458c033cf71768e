package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

func TestPostgresContract(t *testing.T) { ledgertest.RunContract(t, openPostgresTest, addLegacyKey) }

func TestPostgresMixedOutcomes(t *testing.T) {
	ledgertest.RunMixedOutcomes(t, openPostgresTest(t, ledger.Options{}))
}

// TestPostgresTwoReplicas: two Stores (two pools, as two mapd replicas) on
// one database share one account.
func TestPostgresTwoReplicas(t *testing.T) {
	dsn := newPostgresDSN(t)
	a := openStore(t, dsn, ledger.Options{})
	b := openStore(t, dsn, ledger.Options{})
	ledgertest.CheckExactlyK(t, []ledger.Store{a, b}, 64, 8, 300, 2)
}

// TestPostgresMigrateIdempotent runs Migrate again and concurrently.
func TestPostgresMigrateIdempotent(t *testing.T) {
	dsn := newPostgresDSN(t)
	s := openStore(t, dsn, ledger.Options{})
	errs := make(chan error, 4)
	for range 4 {
		go func() { errs <- s.Migrate(bg) }()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatalf("Migrate again: %v", err)
		}
	}
	conn, err := pgx.Connect(bg, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(bg)
	var versions int
	if err := conn.QueryRow(bg, `SELECT count(*) FROM ledger_schema`).Scan(&versions); err != nil {
		t.Fatal(err)
	}
	if versions != len(pgMigrations) {
		t.Errorf("ledger_schema has %d rows, want %d", versions, len(pgMigrations))
	}
}

// TestPostgresExpiredHoldsReturn: a hold whose process died comes back
// after HoldTTL, and its late Commit is refused rather than charged twice.
func TestPostgresExpiredHoldsReturn(t *testing.T) {
	clock := ledgertest.NewFakeClock(time.Now())
	s := openStore(t, newPostgresDSN(t), ledger.Options{Now: clock.Now, HoldTTL: time.Minute}).(*postgresStore)
	acct, key := ledgertest.NewAccount(t, s, 10, nil)
	r, err := s.Reserve(bg, key, "isochrone", 5, "crashed")
	if err != nil {
		t.Fatal(err)
	}
	clock.Set(clock.Now().Add(2 * time.Minute))
	// The sweep takes a server-wide advisory lock and skips its turn while
	// another store (another test's, on the shared server) sweeps: ask
	// again until it has run.
	var a ledger.Account
	for try := 0; try < 100; try++ {
		if err := s.sweepExpiredHolds(bg); err != nil {
			t.Fatal(err)
		}
		if a, _ = s.GetAccount(bg, acct.AccountID); a.Held == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if a.Held != 0 || a.Balance != 10 {
		t.Errorf("after the sweep: balance %d held %d, want 10 and 0", a.Balance, a.Held)
	}
	if err := s.Commit(bg, r); !errors.Is(err, ledger.ErrUnknownReservation) {
		t.Errorf("Commit of an expired hold = %v, want ErrUnknownReservation", err)
	}
	ledgertest.MustVerify(t, s)
}

// TestPostgresRevocationBound: a revocation made by another replica is seen
// within AuthCacheTTL.
func TestPostgresRevocationBound(t *testing.T) {
	dsn := newPostgresDSN(t)
	server := openStore(t, dsn, ledger.Options{AuthCacheTTL: 200 * time.Millisecond})
	admin := openStore(t, dsn, ledger.Options{})
	acct, _ := ledgertest.NewAccount(t, admin, 10, nil)
	key := acct.Key.Secret.Reveal()
	if _, err := server.Authenticate(bg, key); err != nil {
		t.Fatal(err)
	}
	if err := admin.RevokeKey(bg, acct.Key.KeyID); err != nil {
		t.Fatal(err)
	}
	time.Sleep(250 * time.Millisecond)
	if _, err := server.Authenticate(bg, key); !errors.Is(err, ledger.ErrRevokedKey) {
		t.Errorf("Authenticate after the TTL = %v, want ErrRevokedKey", err)
	}
	if err := admin.Suspend(bg, acct.AccountID); err != nil {
		t.Fatal(err)
	}
	info := ledger.KeyInfo{KeyID: acct.Key.KeyID, AccountID: acct.AccountID}
	if _, err := server.Reserve(bg, info, "directions", 1, "r"); !errors.Is(err, ledger.ErrAccountSuspended) {
		t.Errorf("Reserve on another replica right after Suspend = %v, want ErrAccountSuspended", err)
	}
}

// TestPostgresUnavailable: a server that does not answer yields
// ErrUnavailable quickly.
func TestPostgresUnavailable(t *testing.T) {
	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	start := time.Now()
	_, err := Open(ctx, "postgres://postgres@127.0.0.1:1/none?sslmode=disable", ledger.Options{})
	if !errors.Is(err, ledger.ErrUnavailable) {
		t.Fatalf("Open on a closed port = %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v to fail", d)
	}
}

// TestPostgresVerifyFindsMismatch tampers with a balance in SQL.
func TestPostgresVerifyFindsMismatch(t *testing.T) {
	dsn := newPostgresDSN(t)
	s := openStore(t, dsn, ledger.Options{})
	acct, _ := ledgertest.NewAccount(t, s, 10, nil)
	conn, err := pgx.Connect(bg, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(bg)
	if _, err := conn.Exec(bg, `UPDATE ledger_accounts SET balance = 3 WHERE id = $1`, acct.AccountID); err != nil {
		t.Fatal(err)
	}
	report, err := s.Verify(bg)
	if err != nil {
		t.Fatal(err)
	}
	if report.OK() || report.Mismatches[0].Balance != 3 || report.Mismatches[0].Grants != 10 {
		t.Errorf("Verify = %+v, want one mismatch with balance 3, grants 10", report)
	}
}
