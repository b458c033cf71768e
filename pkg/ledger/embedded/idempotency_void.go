package embedded

import (
	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
)

// An Idempotency-Key is bound to its request's charge durably (issue 34
// item 1). The embedded store journals a charge when it reserves it, with
// the request's key (journalRecord.Key), and stores the key's answer in
// bbolt, fsynced, before the charge is committed and the 200 is sent. So
// after a crash, replay knows of each keyed charge whether its request
// could have been answered:
//
//   - the key's stored answer is this request's: the answer may have left
//     (or is ready for the retry), so the charge stands and a retry gets
//     the stored answer;
//   - otherwise the request died before its answer existed: it was never
//     answered 200, so replay voids the charge, and the retry, computed
//     afresh, is the one charged.
//
// Either way a key's request and all its retries are charged once in all.
// Charges of requests without a key stay as they were (docs/metering.md,
// "Crash and the in-flight few").

// voidUnanswered returns recs without the keyed charges whose key holds no
// answer of their request, and without their cancellations, and logs each
// it voids. Run it in the transaction that applies recs.
func (s *boltStore) voidUnanswered(tx *bolt.Tx, recs []journalRecord) []journalRecord {
	answers := tx.Bucket([]byte(bucketIdempotency)) // nil before the first keyed request
	voided := map[string]bool{}
	kept := recs[:0:0]
	for _, r := range recs {
		if r.Key != "" && !r.Cancel && !answered(answers, r) {
			voided[r.RequestID] = true
		}
		if voided[r.RequestID] {
			continue
		}
		kept = append(kept, r)
	}
	for id := range voided {
		s.opts.Logger.Info("ledger: voided the charge of a request killed before its answer was stored; its Idempotency-Key's retry pays once",
			"request_id", id)
	}
	return kept
}

// answered reports whether the stored answer of r's key is r's request's.
func answered(answers *bolt.Bucket, r journalRecord) bool {
	if answers == nil {
		return false
	}
	raw := answers.Get(idempotencyIndex(ledger.Claim{AccountID: r.AccountID, Key: r.Key}))
	if raw == nil {
		return false
	}
	a, err := decodeBoltAnswer(raw)
	return err == nil && a.requestID == r.RequestID
}
