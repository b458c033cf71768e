package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// The usagedays bucket (schema version 2) sums each account's charges per
// UTC day and operation, so that a usage report reads a few keys per day
// instead of every usage record of the ledger:
//
//	usagedays  account id + 0x00 + yyyymmdd (8 digits) + 0x00 + operation -> OperationTotals
//
// The applier keeps it in step with the usage bucket, in the same
// transactions (applyRecords); migrating a version-1 file builds it from the
// usage records once. Verify checks that the two agree.
const bucketUsageDays = "usagedays"

// usageDayKey is the key of an account's totals of one operation on one day.
func usageDayKey(accountID string, day int, operation string) []byte {
	k := indexKey(accountID, strconv.AppendInt(nil, int64(day), 10))
	return append(append(k, 0), operation...)
}

// parseUsageDayKey splits a key of the bucket.
func parseUsageDayKey(k []byte) (accountID string, day int, operation string, err error) {
	parts := bytes.SplitN(k, []byte{0}, 3)
	if len(parts) != 3 || len(parts[1]) != 8 {
		return "", 0, "", fmt.Errorf("usage day key %q is not account, day and operation", k)
	}
	if day, err = strconv.Atoi(string(parts[1])); err != nil {
		return "", 0, "", fmt.Errorf("usage day key %q: %w", k, err)
	}
	return string(parts[0]), day, string(parts[2]), nil
}

// usageDays gathers one transaction's changes to the bucket, so that a
// batch of charges reads and writes each day's totals once.
type usageDays struct {
	bucket *bolt.Bucket
	deltas map[string]ledger.OperationTotals
}

func newUsageDays(tx *bolt.Tx) *usageDays {
	return &usageDays{bucket: tx.Bucket([]byte(bucketUsageDays)), deltas: make(map[string]ledger.OperationTotals)}
}

// add counts a charge (sign 1) or takes a cancelled one back (sign -1).
func (d *usageDays) add(u ledger.Usage, sign int64) {
	k := string(usageDayKey(u.AccountID, shared.DayOf(u.At), u.Operation))
	t := d.deltas[k]
	t.Requests += sign
	t.Credits += sign * u.Credits
	d.deltas[k] = t
}

// flush adds the gathered changes to the stored totals, dropping totals
// that come back to nothing.
func (d *usageDays) flush() error {
	for k, delta := range d.deltas {
		var t ledger.OperationTotals
		if raw := d.bucket.Get([]byte(k)); raw != nil {
			if err := json.Unmarshal(raw, &t); err != nil {
				return fmt.Errorf("decoding usage day %q: %w", k, err)
			}
		}
		t.Requests += delta.Requests
		t.Credits += delta.Credits
		var err error
		if t.Requests == 0 && t.Credits == 0 {
			err = d.bucket.Delete([]byte(k))
		} else {
			err = putJSON(d.bucket, []byte(k), t)
		}
		if err != nil {
			return fmt.Errorf("writing usage day %q: %w", k, err)
		}
	}
	return nil
}

// buildUsageDays fills the bucket from the usage records: the step from
// schema version 1 to 2 (about a second per million records).
func buildUsageDays(tx *bolt.Tx) error {
	days := newUsageDays(tx)
	err := tx.Bucket([]byte(bucketUsage)).ForEach(func(k, v []byte) error {
		var u ledger.Usage
		if err := json.Unmarshal(v, &u); err != nil {
			return fmt.Errorf("decoding usage %q: %w", k, err)
		}
		days.add(u, 1)
		return nil
	})
	if err != nil {
		return fmt.Errorf("building the usage days: %w", err)
	}
	return days.flush()
}

// sumUsageDays returns each account's credits in the bucket, for Verify.
func sumUsageDays(tx *bolt.Tx) (map[string]int64, error) {
	sums := make(map[string]int64)
	err := tx.Bucket([]byte(bucketUsageDays)).ForEach(func(k, v []byte) error {
		accountID, _, _, err := parseUsageDayKey(k)
		if err != nil {
			return err
		}
		var t ledger.OperationTotals
		if err := json.Unmarshal(v, &t); err != nil {
			return fmt.Errorf("decoding usage day %q: %w", k, err)
		}
		sums[accountID] += t.Credits
		return nil
	})
	return sums, err
}

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
