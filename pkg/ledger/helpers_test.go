package ledger

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgTestDSN reaches the local test server (trust auth) and its "test"
// database; each test gets its own schema in it.
const pgTestDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

const pgStartHint = "start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"

// newPostgresDSN creates a uniquely named schema, drops it when the test
// ends, and returns a DSN whose search_path selects it. A server that is
// down fails the test.
func newPostgresDSN(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, pgTestDSN)
	if err != nil {
		t.Fatalf("PostgreSQL on 127.0.0.1:5432 is unreachable (%v); %s", err, pgStartHint)
	}
	defer admin.Close(context.Background())
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "ledger_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("creating test schema %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, pgTestDSN)
		if err != nil {
			t.Errorf("dropping test schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE"); err != nil {
			t.Errorf("dropping test schema %s: %v", name, err)
		}
	})
	return pgTestDSN + "&search_path=" + name
}

func openStore(t testing.TB, dsn string, opts Options) Store {
	t.Helper()
	s, err := OpenWith(context.Background(), dsn, opts)
	if err != nil {
		t.Fatalf("opening ledger: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openBoltTest(t *testing.T, opts Options) Store {
	return openStore(t, filepath.Join(t.TempDir(), "ledger.db"), opts)
}

// syncModes are the embedded store's two ways of acknowledging a charge;
// tests of what Commit promises run under both.
var syncModes = []Sync{SyncBackground, SyncCommit}

// boltOpener opens embedded stores that acknowledge charges in the given
// way, whatever else the test asks for.
func boltOpener(mode Sync) opener {
	return func(t *testing.T, opts Options) Store {
		opts.Sync = mode
		return openBoltTest(t, opts)
	}
}

func openPostgresTest(t *testing.T, opts Options) Store {
	return openStore(t, newPostgresDSN(t), opts)
}

// fakeClock is a settable clock for cap rollover and hold expiry tests.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock(t time.Time) *fakeClock { return &fakeClock{now: t} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}
