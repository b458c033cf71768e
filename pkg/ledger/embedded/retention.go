package embedded

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
)

// Usage-record retention (issue 34 item 5). The embedded ledger keeps one
// usage record (about 300 bytes) per charged request; PruneUsage deletes
// those older than a cutoff (mapd serve --usage-retention). What stays:
// the account's totals and balance, the per-day, per-operation sums that
// `mapd usage export` reads (so invoices of pruned days still add up),
// and, per account, the credits of the pruned records (accountRecord's
// Pruned), so that Verify still balances grants against charges. What
// goes: `mapd usage show` of a pruned request answers that it has no
// record.

// pruneBatch bounds the usage records one PruneUsage transaction deletes,
// so that the writer lock is not held for long while serving.
const pruneBatch = 10_000

var _ ledger.UsagePruner = (*boltStore)(nil)

// PruneUsage deletes the usage records older than cutoff, in transactions
// of at most pruneBatch records, counting their credits in their accounts'
// pruned totals.
func (s *boltStore) PruneUsage(ctx context.Context, cutoff time.Time) (int, error) {
	if err := s.apply.barrier(); err != nil {
		return 0, err
	}
	total := 0
	for {
		n := 0
		err := s.update("pruning usage records", func(tx *bolt.Tx) error {
			var err error
			n, err = pruneUsageBatch(tx, cutoff)
			return err
		})
		total += n
		if err != nil || n < pruneBatch {
			return total, err
		}
		if err := ctx.Err(); err != nil {
			return total, err
		}
	}
}

// pruneUsageBatch deletes up to pruneBatch usage records older than cutoff.
func pruneUsageBatch(tx *bolt.Tx, cutoff time.Time) (int, error) {
	usage := tx.Bucket([]byte(bucketUsage))
	accounts := batchAccounts{records: make(map[string]*accountRecord)}
	var gone [][]byte
	err := usage.ForEach(func(k, v []byte) error {
		if len(gone) >= pruneBatch {
			return nil
		}
		var u ledger.Usage
		if err := json.Unmarshal(v, &u); err != nil {
			return fmt.Errorf("%w: decoding usage record %s: %w", errRecord, k, err)
		}
		if !u.At.Before(cutoff) {
			return nil
		}
		acct, err := accounts.get(tx, u.AccountID)
		if err != nil {
			return err
		}
		acct.Pruned += u.Credits
		gone = append(gone, append([]byte(nil), k...))
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range gone {
		if err := usage.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(gone), accounts.flush(tx)
}
