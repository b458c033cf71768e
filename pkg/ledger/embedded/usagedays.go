package embedded

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

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
