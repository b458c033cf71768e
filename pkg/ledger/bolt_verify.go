package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Verify recomputes every account's balance from its grants and usage
// records in one read transaction (a consistent snapshot) and compares it
// with the stored balance and charge totals. Journaled charges are applied
// first (and by Open, after a crash), so every acknowledged charge counts.
func (s *boltStore) Verify(ctx context.Context) (VerifyReport, error) {
	if err := s.applied(); err != nil {
		return VerifyReport{}, err
	}
	var report VerifyReport
	err := s.view("verifying the ledger", func(tx *bolt.Tx) error {
		grants, err := sumGrants(tx)
		if err != nil {
			return err
		}
		charges, err := sumCharges(tx)
		if err != nil {
			return err
		}
		days, err := sumUsageDays(tx)
		if err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketAccounts)).ForEach(func(k, v []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			var rec accountRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return fmt.Errorf("decoding account %s: %w", k, err)
			}
			report.Accounts++
			id := string(k)
			if m, bad := checkBooks(id, rec.Balance, rec.Charged, grants[id], charges[id]); bad {
				report.Mismatches = append(report.Mismatches, m)
			} else if days[id] != charges[id] {
				m.Reason = fmt.Sprintf("usage days sum to %d credits, usage records to %d", days[id], charges[id])
				report.Mismatches = append(report.Mismatches, m)
			}
			return nil
		})
	})
	return report, err
}

// checkBooks compares an account's stored balance and charge total with the
// sums of its grants and usage records.
func checkBooks(accountID string, balance, charged, grants, charges int64) (Mismatch, bool) {
	m := Mismatch{AccountID: accountID, Balance: balance, Grants: grants, Charges: charges}
	switch {
	case balance != grants-charges:
		m.Reason = fmt.Sprintf("balance %d != grants %d - charges %d", balance, grants, charges)
	case balance < 0:
		m.Reason = fmt.Sprintf("negative balance %d", balance)
	case charged != charges:
		m.Reason = fmt.Sprintf("charge total %d != sum of usage records %d", charged, charges)
	default:
		return m, false
	}
	return m, true
}

func sumGrants(tx *bolt.Tx) (map[string]int64, error) {
	sums := make(map[string]int64)
	err := tx.Bucket([]byte(bucketGrants)).ForEach(func(k, v []byte) error {
		i := bytes.IndexByte(k, 0)
		if i < 0 {
			return fmt.Errorf("grant key %q has no account separator", k)
		}
		var g grantRecord
		if err := json.Unmarshal(v, &g); err != nil {
			return fmt.Errorf("decoding grant %q: %w", k, err)
		}
		sums[string(k[:i])] += g.Credits
		return nil
	})
	return sums, err
}

func sumCharges(tx *bolt.Tx) (map[string]int64, error) {
	sums := make(map[string]int64)
	err := tx.Bucket([]byte(bucketUsage)).ForEach(func(k, v []byte) error {
		var u Usage
		if err := json.Unmarshal(v, &u); err != nil {
			return fmt.Errorf("decoding usage %q: %w", k, err)
		}
		sums[u.AccountID] += u.Credits
		return nil
	})
	return sums, err
}
