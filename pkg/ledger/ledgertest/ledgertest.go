// Package ledgertest helps tests of the ledger: PostgresSchema gives a test
// its own schema on the shared PostgreSQL of 127.0.0.1:5432 (trust auth,
// database "test"), dropped when the test ends, so that tests of several
// packages and worktrees can use one server at once without seeing each
// other's tables. For fault tests with real processes and filesystems,
// StartPostgres starts a PostgreSQL of the test's own, which it may stall
// (SIGSTOP) and resume, and SmallDisk mounts a small tmpfs that Fill fills.
//
// It also holds the contract every store must pass (RunContract,
// RunIdempotencyContract, RunMixedOutcomes, CheckExactlyK): the embedded
// and the PostgreSQL stores each run it from their own tests with an
// Opener of their own, as database/sql drivers run one conformance suite.
// It imports neither store.
//
// It is for tests only.
package ledgertest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// AdminDSN reaches the shared server's "test" database.
const AdminDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// StartHint says how to start the shared server when it is down.
const StartHint = "start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"

// PostgresSchema creates a schema named prefix + 12 random hex digits, drops it
// (CASCADE) when the test ends, and returns a DSN whose search_path selects
// it, and its name. A server that is down fails the test.
func PostgresSchema(t testing.TB, prefix string) (dsn, schema string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, AdminDSN)
	if err != nil {
		t.Fatalf("PostgreSQL on 127.0.0.1:5432 is unreachable (%v); %s", err, StartHint)
	}
	defer conn.Close(context.Background())
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema = prefix + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("creating schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, AdminDSN)
		if err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})
	return AdminDSN + "&search_path=" + schema, schema
}
