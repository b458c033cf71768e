package embedded

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// The embedded store keeps answers in the bucket "idempotency" of the bbolt
// file, and running claims in memory: the process owns the file (bbolt's
// lock), so it knows exactly which of its requests are running, and a crash
// ends them all.
//
//	idempotency  account id + 0x00 + key -> answer record (boltAnswer)
//
// Complete writes the answer in a bbolt transaction, fsynced, so that it is
// on disk before the charge's journal write, whatever the journal's
// --ledger-sync: a power loss then leaves an answer without its charge (the
// retry computes afresh), never a charge without its answer. Concurrent
// Completes share a transaction (answerWriter): one each ran at about 600
// keyed requests a second, one fsync apiece (BenchmarkIdempotencyKey).
const bucketIdempotency = "idempotency"

// boltIdempotency implements Idempotency for the embedded store.
type boltIdempotency struct {
	s    *boltStore
	opts ledger.IdempotencyOptions

	mu      sync.Mutex
	running map[claimKey]*boltClaim
	writer  answerWriter
}

type claimKey struct{ account, key string }

// boltClaim is a key's request in this process. inDoubt marks one whose
// Commit failed in a way that may have charged it: the journal may hold the
// charge although bbolt does not show it until the ledger is reopened
// (Meter.Commit), so the claim stays until mapd restarts.
type boltClaim struct {
	requestID   string
	fingerprint [32]byte
	inDoubt     bool
}

// OpenIdempotency returns the store's idempotency keys (ledger.OpenIdempotency
// calls it, with opts' defaults filled in), creating their bucket if needed.
func (s *boltStore) OpenIdempotency(ctx context.Context, opts ledger.IdempotencyOptions) (ledger.Idempotency, error) {
	return openBoltIdempotency(s, opts)
}

func openBoltIdempotency(s *boltStore, opts ledger.IdempotencyOptions) (*boltIdempotency, error) {
	err := s.update("creating the idempotency bucket", func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists([]byte(bucketIdempotency))
		return err
	})
	if err != nil {
		return nil, err
	}
	b := &boltIdempotency{s: s, opts: opts, running: map[claimKey]*boltClaim{}}
	b.writer.s = s
	return b, nil
}

// Begin claims the key in memory first, so that concurrent retries see a
// running request, then looks at the stored answer outside the lock.
func (b *boltIdempotency) Begin(ctx context.Context, c ledger.Claim) (*ledger.Replay, error) {
	k := claimKey{c.AccountID, c.Key}
	b.mu.Lock()
	if r, ok := b.running[k]; ok {
		b.mu.Unlock()
		if r.fingerprint != c.Fingerprint {
			return nil, ledger.ErrIdempotencyKeyReused
		}
		return nil, ledger.ErrIdempotencyInProgress
	}
	b.running[k] = &boltClaim{requestID: c.RequestID, fingerprint: c.Fingerprint}
	b.s.keyed.Store(c.RequestID, c.Key)
	b.mu.Unlock()
	replay, err := b.stored(ctx, c)
	if replay != nil || err != nil {
		b.drop(k, c.RequestID)
	}
	return replay, err
}

// stored returns the answer stored for c's key if its request was charged,
// and an error if the key is bound to another fingerprint. An answer never
// charged (its Commit failed, or the process died before it) is left to be
// overwritten.
func (b *boltIdempotency) stored(ctx context.Context, c ledger.Claim) (*ledger.Replay, error) {
	var rec boltAnswer
	var found bool
	err := b.s.view("reading idempotency key", func(tx *bolt.Tx) error {
		raw := tx.Bucket([]byte(bucketIdempotency)).Get(idempotencyIndex(c))
		if raw == nil {
			return nil
		}
		var err error
		rec, err = decodeBoltAnswer(raw)
		found = err == nil
		return err
	})
	if err != nil || !found || b.opts.Now().Sub(rec.at) > b.opts.TTL {
		return nil, err
	}
	if rec.fingerprint != c.Fingerprint {
		return nil, ledger.ErrIdempotencyKeyReused
	}
	credits, ok, err := shared.ChargedCredits(ctx, b.s, rec.requestID)
	if err != nil || !ok {
		return nil, err
	}
	return shared.ReplayOf(rec.requestID, rec.answer, rec.hashed, credits), nil
}

func (b *boltIdempotency) Complete(ctx context.Context, c ledger.Claim, answer []byte) error {
	if !b.owns(c) {
		return ledger.ErrIdempotencyInProgress
	}
	stored, hashed := shared.StoredAnswer(answer)
	rec := encodeBoltAnswer(boltAnswer{at: b.opts.Now(), fingerprint: c.Fingerprint, requestID: c.RequestID, answer: stored, hashed: hashed})
	return b.writer.put(idempotencyIndex(c), rec)
}

// answerWriter writes answers in shared transactions: a Complete that finds
// no transaction under way writes every answer queued by then, and goes on
// while more arrive; the others wait for the transaction holding theirs.
type answerWriter struct {
	s       *boltStore
	mu      sync.Mutex
	queue   []queuedAnswer
	writing bool
}

type queuedAnswer struct {
	key, value []byte
	done       chan error
}

func (w *answerWriter) put(key, value []byte) error {
	done := make(chan error, 1)
	w.mu.Lock()
	w.queue = append(w.queue, queuedAnswer{key, value, done})
	if w.writing {
		w.mu.Unlock()
		return <-done
	}
	w.writing = true
	for len(w.queue) > 0 {
		batch := w.queue
		w.queue = nil
		w.mu.Unlock()
		err := w.s.update("storing answers of idempotent requests", func(tx *bolt.Tx) error {
			bk := tx.Bucket([]byte(bucketIdempotency))
			for _, a := range batch {
				if err := bk.Put(a.key, a.value); err != nil {
					return err
				}
			}
			return nil
		})
		for _, a := range batch {
			a.done <- err
		}
		w.mu.Lock()
	}
	w.writing = false
	w.mu.Unlock()
	return <-done
}

func (b *boltIdempotency) Finish(ctx context.Context, c ledger.Claim, commitErr error) error {
	k := claimKey{c.AccountID, c.Key}
	switch {
	case commitErr == nil:
		b.drop(k, c.RequestID)
	case errors.Is(commitErr, ledger.ErrUnavailable):
		b.mu.Lock()
		if r, ok := b.running[k]; ok && r.requestID == c.RequestID {
			r.inDoubt = true
		}
		b.mu.Unlock()
	default:
		b.drop(k, c.RequestID)
		return b.s.update("dropping the answer of request "+c.RequestID, func(tx *bolt.Tx) error {
			bk := tx.Bucket([]byte(bucketIdempotency))
			if rec, err := decodeBoltAnswer(bk.Get(idempotencyIndex(c))); err == nil && rec.requestID == c.RequestID {
				return bk.Delete(idempotencyIndex(c))
			}
			return nil
		})
	}
	return nil
}

func (b *boltIdempotency) Abandon(ctx context.Context, c ledger.Claim) error {
	b.drop(claimKey{c.AccountID, c.Key}, c.RequestID)
	return nil
}

// Prune deletes the answers older than the TTL in one transaction.
func (b *boltIdempotency) Prune(ctx context.Context) (int, error) {
	cutoff := b.opts.Now().Add(-b.opts.TTL)
	n := 0
	err := b.s.update("pruning idempotency keys", func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketIdempotency)).Cursor()
		for k, v := c.First(); k != nil; {
			rec, err := decodeBoltAnswer(v)
			if err == nil && rec.at.After(cutoff) {
				k, v = c.Next()
				continue
			}
			gone := bytes.Clone(k)
			if err := c.Delete(); err != nil {
				return err
			}
			n++
			k, v = c.Seek(gone) // Delete leaves the cursor between keys
		}
		return nil
	})
	return n, err
}

// owns reports whether c's request still holds its key.
func (b *boltIdempotency) owns(c ledger.Claim) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.running[claimKey{c.AccountID, c.Key}]
	return ok && r.requestID == c.RequestID
}

// drop removes requestID's claim on k, if it is still the holder.
func (b *boltIdempotency) drop(k claimKey, requestID string) {
	b.mu.Lock()
	if r, ok := b.running[k]; ok && r.requestID == requestID {
		delete(b.running, k)
		b.s.keyed.Delete(requestID)
	}
	b.mu.Unlock()
}

// idempotencyIndex is the bucket key of c's key: account id, 0x00, key.
func idempotencyIndex(c ledger.Claim) []byte {
	k := make([]byte, 0, len(c.AccountID)+1+len(c.Key))
	k = append(append(append(k, c.AccountID...), 0), c.Key...)
	return k
}

// boltAnswer is a stored answer. Its layout: 8 bytes big-endian Unix
// nanoseconds (when stored), 32 bytes fingerprint, 1 byte request id length
// (at most 64) whose high bit says the answer is hashed, the request id,
// the answer (or, hashed, its SHA-256).
type boltAnswer struct {
	at          time.Time
	fingerprint [32]byte
	requestID   string
	answer      []byte
	hashed      bool
}

// answerHashed is the request id length byte's flag for a hashed answer.
const answerHashed = 0x80

func encodeBoltAnswer(a boltAnswer) []byte {
	b := make([]byte, 0, 8+32+1+len(a.requestID)+len(a.answer))
	b = binary.BigEndian.AppendUint64(b, uint64(a.at.UnixNano()))
	b = append(b, a.fingerprint[:]...)
	flag := byte(0)
	if a.hashed {
		flag = answerHashed
	}
	b = append(b, byte(len(a.requestID))|flag)
	b = append(b, a.requestID...)
	return append(b, a.answer...)
}

// decodeBoltAnswer reads a record; the answer it returns is a copy, since
// bbolt's values live only as long as their transaction.
func decodeBoltAnswer(b []byte) (boltAnswer, error) {
	if len(b) < 41 {
		return boltAnswer{}, fmt.Errorf("idempotency record of %d bytes is truncated", len(b))
	}
	n, hashed := int(b[40]&^answerHashed), b[40]&answerHashed != 0
	if len(b) < 41+n || (hashed && len(b) != 41+n+sha256.Size) {
		return boltAnswer{}, fmt.Errorf("idempotency record of %d bytes is truncated", len(b))
	}
	a := boltAnswer{at: time.Unix(0, int64(binary.BigEndian.Uint64(b))), requestID: string(b[41 : 41+n]),
		answer: bytes.Clone(b[41+n:]), hashed: hashed}
	copy(a.fingerprint[:], b[8:40])
	return a, nil
}
