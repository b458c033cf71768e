package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// maxDamage bounds how many bbolt consistency errors Verify reports.
const maxDamage = 20

// Verify recomputes every account's balance from its grants and usage
// records and compares it with the stored balance and charge totals, in one
// transaction (a consistent snapshot). Journaled charges are applied first
// (and by Open, after a crash), so every acknowledged charge counts. It
// then checks the files: every record of every bucket decodes, bbolt's own
// consistency check of every page (run only once every page was read
// under guard, since it reads pages in a goroutine of its own, where a
// fault would kill the process), and the journal. Damage goes in
// report.Damage.
func (s *boltStore) Verify(ctx context.Context) (ledger.VerifyReport, error) {
	if err := s.applied(); err != nil {
		return ledger.VerifyReport{}, err
	}
	var report ledger.VerifyReport
	// A writable transaction, rolled back: bbolt's check is not safe in a
	// read transaction while the applier commits.
	err := s.file.write("verifying the ledger", func() error {
		tx, err := s.db.Begin(true)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := checkAccounts(ctx, tx, &report); err != nil {
			return err
		}
		if err := checkIndexes(tx); err != nil {
			return err
		}
		for err := range tx.Check() {
			if len(report.Damage) == maxDamage {
				report.Damage = append(report.Damage, "bbolt: more inconsistencies not listed")
				break
			}
			report.Damage = append(report.Damage, "bbolt: "+err.Error())
		}
		return nil
	})
	switch {
	case errors.Is(err, ledger.ErrCorrupt), errors.Is(err, errRecord):
		report.Damage = append(report.Damage, err.Error())
	case err != nil:
		return ledger.VerifyReport{}, s.classify("verifying the ledger", err)
	}
	js, err := s.checkJournal()
	if err != nil {
		report.Damage = append(report.Damage, err.Error())
	}
	report.Journal = js
	return report, nil
}

// errRecord marks a record that does not decode.
var errRecord = errors.New("ledger: damaged record")

// checkAccounts compares every account's books.
func checkAccounts(ctx context.Context, tx *bolt.Tx, report *ledger.VerifyReport) error {
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
			return fmt.Errorf("%w: decoding account %s: %w", errRecord, k, err)
		}
		report.Accounts++
		id := string(k)
		charged := charges[id] + rec.Pruned // records pruned by retention count too
		if m, bad := shared.CheckBooks(id, rec.Balance, rec.Charged, grants[id], charged); bad {
			report.Mismatches = append(report.Mismatches, m)
		} else if days[id] != charged {
			m.Reason = fmt.Sprintf("usage days sum to %d credits, usage records to %d (%d of them pruned)", days[id], charged, rec.Pruned)
			report.Mismatches = append(report.Mismatches, m)
		}
		return nil
	})
}

// checkIndexes reads the key buckets the books do not: every key record
// decodes and every hash and account index names a key.
func checkIndexes(tx *bolt.Tx) error {
	keys := tx.Bucket([]byte(bucketKeys))
	err := keys.ForEach(func(k, v []byte) error {
		var rec keyRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return fmt.Errorf("%w: decoding key %s: %w", errRecord, k, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = tx.Bucket([]byte(bucketKeyHash)).ForEach(func(k, v []byte) error {
		if keys.Get(v) == nil {
			return fmt.Errorf("%w: key hash %x names key %q, which does not exist", errRecord, k, v)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return tx.Bucket([]byte(bucketAcctKeys)).ForEach(func(k, _ []byte) error {
		if i := bytes.IndexByte(k, 0); i < 0 || keys.Get(k[i+1:]) == nil {
			return fmt.Errorf("%w: account key index %q names no key", errRecord, k)
		}
		return nil
	})
}

func sumGrants(tx *bolt.Tx) (map[string]int64, error) {
	sums := make(map[string]int64)
	err := tx.Bucket([]byte(bucketGrants)).ForEach(func(k, v []byte) error {
		i := bytes.IndexByte(k, 0)
		if i < 0 {
			return fmt.Errorf("%w: grant key %q has no account separator", errRecord, k)
		}
		var g grantRecord
		if err := json.Unmarshal(v, &g); err != nil {
			return fmt.Errorf("%w: decoding grant %q: %w", errRecord, k, err)
		}
		sums[string(k[:i])] += g.Credits
		return nil
	})
	return sums, err
}

func sumCharges(tx *bolt.Tx) (map[string]int64, error) {
	sums := make(map[string]int64)
	err := tx.Bucket([]byte(bucketUsage)).ForEach(func(k, v []byte) error {
		var u ledger.Usage
		if err := json.Unmarshal(v, &u); err != nil {
			return fmt.Errorf("%w: decoding usage %q: %w", errRecord, k, err)
		}
		sums[u.AccountID] += u.Credits
		return nil
	})
	return sums, err
}

// checkJournal reads the journal back as the writer, so that nothing is
// written meanwhile: its header must name this ledger and its size, and
// the current epoch must hold intact records up to the writer's position
// and none after it.
func (s *boltStore) checkJournal() (*ledger.JournalStatus, error) {
	var st *ledger.JournalStatus
	var err error
	s.commits.exclusive(func() {
		j := s.journal
		st = &ledger.JournalStatus{Path: j.path, Epoch: j.epoch, Bytes: j.off - journalStart, Size: j.size}
		var h journalHeader
		if h, err = j.readHeader(); err != nil {
			err = corrupt("journal %s: reading its header: %v", j.path, err)
			return
		}
		var sc journalScan
		if sc, err = j.scanEpoch(journalStart, j.epoch); err != nil {
			return
		}
		sc.wantSize = h.Size
		if err = sc.readMarkFor(j, j.epoch); err != nil {
			return
		}
		st.Records = len(sc.records(false))
		switch d := sc.damage(j.path); {
		case d != nil:
			err = d
		case sc.runs[0].end != j.off:
			err = corrupt("journal %s: its records end at offset %d, but %d bytes were written", j.path, sc.runs[0].end, j.off)
		case j.records > 0 && (!sc.hasMark || sc.mark.records != j.records || sc.mark.end != j.off):
			err = corrupt("journal %s: its acknowledgement mark (%+v) is not the writer's (%d records to offset %d)", j.path, sc.mark, j.records, j.off)
		}
	})
	return st, err
}
