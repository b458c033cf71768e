package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// UsageReport reads the account's grants and usage days in one read
// transaction, after the applier has caught up.
func (s *boltStore) UsageReport(ctx context.Context, accountID string, from, to time.Time) (ledger.UsageReport, error) {
	fromDay, toDay, _, _, err := shared.ReportRange(accountID, from, to)
	if err != nil {
		return ledger.UsageReport{}, err
	}
	if err := s.applied(); err != nil {
		return ledger.UsageReport{}, err
	}
	r := ledger.UsageReport{AccountID: accountID, From: shared.DayString(fromDay), To: shared.DayString(toDay)}
	err = s.view("reporting the usage of account "+accountID, func(tx *bolt.Tx) error {
		if _, err := loadAccount(tx, accountID); err != nil {
			return err
		}
		if err := reportGrants(tx, &r, fromDay, toDay); err != nil {
			return err
		}
		return reportDays(tx, &r, fromDay, toDay)
	})
	if err != nil {
		return ledger.UsageReport{}, err
	}
	shared.FinishReport(&r)
	return r, nil
}

// reportGrants adds the account's grants before and during the days.
func reportGrants(tx *bolt.Tx, r *ledger.UsageReport, fromDay, toDay int) error {
	prefix := indexKey(r.AccountID, nil)
	c := tx.Bucket([]byte(bucketGrants)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var g grantRecord
		if err := json.Unmarshal(v, &g); err != nil {
			return fmt.Errorf("decoding grant %q: %w", k, err)
		}
		switch day := shared.DayOf(g.At); {
		case day < fromDay:
			r.Balance.Opening += g.Credits
		case day <= toDay:
			r.Balance.Granted += g.Credits
		}
	}
	return nil
}

// reportDays takes the charges before the days off the opening balance
// and lists those during them.
func reportDays(tx *bolt.Tx, r *ledger.UsageReport, fromDay, toDay int) error {
	prefix := indexKey(r.AccountID, nil)
	c := tx.Bucket([]byte(bucketUsageDays)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		_, day, op, err := parseUsageDayKey(k)
		if err != nil {
			return err
		}
		if day > toDay {
			break
		}
		var t ledger.OperationTotals
		if err := json.Unmarshal(v, &t); err != nil {
			return fmt.Errorf("decoding usage day %q: %w", k, err)
		}
		if day < fromDay {
			r.Balance.Opening -= t.Credits
			continue
		}
		r.Days = append(r.Days, ledger.DayUsage{Date: shared.DayString(day), Operation: op, Requests: t.Requests, Credits: t.Credits})
	}
	return nil
}
