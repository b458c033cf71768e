package postgres

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

var bg = context.Background()

// funded is the credits of the accounts that load tests drain.
const funded = 1_000_000

// newPostgresDSN gives the test a schema of its own on the shared server
// and returns a DSN whose search_path selects it.
func newPostgresDSN(t testing.TB) string {
	dsn, _ := ledgertest.PostgresSchema(t, "ledger_test_")
	return dsn
}

func openStore(t testing.TB, dsn string, opts ledger.Options) ledger.Store {
	t.Helper()
	s, err := Open(context.Background(), dsn, opts)
	if err != nil {
		t.Fatalf("opening ledger: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openPostgresTest(t *testing.T, opts ledger.Options) ledger.Store {
	return openStore(t, newPostgresDSN(t), opts)
}

// addLegacyKey inserts a key of the format before checksums, as an old
// ledger holds it (ledgertest.LegacyKeyAdder).
func addLegacyKey(t *testing.T, s ledger.Store, keyID, accountID string, hash [sha256.Size]byte, now time.Time) error {
	_, err := s.(*postgresStore).pool.Exec(bg, `INSERT INTO ledger_keys (id, account_id, hash, kind, rate_limit, created_at)
		VALUES ($1, $2, $3, 'secret', 0, $4)`, keyID, accountID, hash[:], now)
	return err
}
