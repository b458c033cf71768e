package open_test

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
	"github.com/mapsco/maps/pkg/ledger/open"
)

var bg = context.Background()

// newPostgresDSN gives the test a schema of its own on the shared server
// and returns a DSN whose search_path selects it.
func newPostgresDSN(t testing.TB) string {
	dsn, _ := ledgertest.PostgresSchema(t, "ledger_test_")
	return dsn
}

func openStore(t testing.TB, dsn string, opts ledger.Options) ledger.Store {
	t.Helper()
	s, err := open.OpenWith(context.Background(), dsn, opts)
	if err != nil {
		t.Fatalf("opening ledger: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
