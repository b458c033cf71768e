package embedded

import (
	"context"
	"crypto/sha256"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

var bg = context.Background()

func openStore(t testing.TB, path string, opts ledger.Options) ledger.Store {
	t.Helper()
	s, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("opening ledger: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openBoltTest(t *testing.T, opts ledger.Options) ledger.Store {
	return openStore(t, filepath.Join(t.TempDir(), "ledger.db"), opts)
}

// syncModes are the embedded store's two ways of acknowledging a charge;
// tests of what Commit promises run under both.
var syncModes = []ledger.Sync{ledger.SyncBackground, ledger.SyncCommit}

// boltOpener opens embedded stores that acknowledge charges in the given
// way, whatever else the test asks for.
func boltOpener(mode ledger.Sync) ledgertest.Opener {
	return func(t *testing.T, opts ledger.Options) ledger.Store {
		opts.Sync = mode
		return openBoltTest(t, opts)
	}
}

// addLegacyKey writes a key of the format before checksums into bbolt, as
// an old ledger holds it (ledgertest.LegacyKeyAdder).
func addLegacyKey(t *testing.T, s ledger.Store, keyID, accountID string, hash [sha256.Size]byte, now time.Time) error {
	return s.(*boltStore).update("adding a legacy key", func(tx *bolt.Tx) error {
		return putKey(tx, ledger.IssuedKey{KeyID: keyID, AccountID: accountID, Kind: ledger.KindSecret}, hash, now)
	})
}
