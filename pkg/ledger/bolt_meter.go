package ledger

import (
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Authenticate looks the key's hash up in the file (or the auth cache).
func (s *boltStore) Authenticate(ctx context.Context, presentedKey string) (KeyInfo, error) {
	h, err := parseKey(presentedKey)
	if err != nil {
		return KeyInfo{}, err
	}
	if info, ok := s.auth.get(h); ok {
		return info, nil
	}
	gen := s.auth.generation()
	var info KeyInfo
	err = s.view("authenticating a key", func(tx *bolt.Tx) error {
		keyID := tx.Bucket([]byte(bucketKeyHash)).Get(h[:])
		if keyID == nil {
			return ErrUnknownKey
		}
		var key keyRecord
		if _, err := getJSON(tx.Bucket([]byte(bucketKeys)), string(keyID), &key); err != nil {
			return err
		}
		if key.RevokedAt != nil {
			return ErrRevokedKey
		}
		acct, err := loadAccount(tx, key.AccountID)
		if err != nil {
			return err
		}
		info = KeyInfo{KeyID: string(keyID), AccountID: key.AccountID, Kind: key.Kind,
			AccountStatus: acct.Status, RateLimit: key.RateLimit}
		return nil
	})
	if err != nil {
		return KeyInfo{}, err
	}
	s.auth.put(h, info, gen)
	return info, nil
}

// Reserve holds credits in memory; nothing is written to the file.
func (s *boltStore) Reserve(ctx context.Context, key KeyInfo, operation string, credits int64, requestID string) (Reservation, error) {
	if err := checkRequest(key, operation, credits, requestID); err != nil {
		return Reservation{}, err
	}
	a, err := s.loadedAccount(key.AccountID)
	if err != nil {
		return Reservation{}, err
	}
	defer a.mu.Unlock()
	if a.status != StatusActive {
		return Reservation{}, fmt.Errorf("reserving for account %s: %w", key.AccountID, ErrAccountSuspended)
	}
	now := s.opts.Now()
	sp := a.spend.at(now)
	if short := capCheck(key.AccountID, a.balance-a.held, a.caps, sp, credits); short != nil {
		return Reservation{}, short
	}
	id := s.nextHold.Add(1)
	h := hold{credits: credits, day: sp.Day, month: sp.Month}
	a.spend = sp.plus(h.day, h.month, credits)
	a.held += credits
	a.holds[id] = h
	return Reservation{ID: id, AccountID: key.AccountID, KeyID: key.KeyID, Operation: operation,
		RequestID: requestID, Credits: credits, At: now}, nil
}

// loadedAccount returns the account's live entry, loaded and locked.
func (s *boltStore) loadedAccount(accountID string) (*liveAccount, error) {
	a := s.live.get(accountID)
	a.mu.Lock()
	if a.loaded {
		return a, nil
	}
	var rec accountRecord
	err := s.view("loading account "+accountID, func(tx *bolt.Tx) error {
		var err error
		rec, err = loadAccount(tx, accountID)
		return err
	})
	if err != nil {
		a.mu.Unlock()
		return nil, err
	}
	a.load(rec)
	return a, nil
}

// Commit journals the charge and usage record through the group committer
// and returns once they are on disk; they reach bbolt in the background.
func (s *boltStore) Commit(ctx context.Context, r Reservation) error {
	a, ok := s.live.peek(r.AccountID)
	if !ok {
		return fmt.Errorf("committing request %s: %w", r.RequestID, ErrUnknownReservation)
	}
	a.mu.Lock()
	h, ok := a.holds[r.ID]
	delete(a.holds, r.ID) // from here on Release refuses it; held still counts it
	a.mu.Unlock()
	if !ok {
		return fmt.Errorf("committing request %s: %w", r.RequestID, ErrUnknownReservation)
	}
	usage := Usage{RequestID: r.RequestID, AccountID: r.AccountID, KeyID: r.KeyID,
		Operation: r.Operation, Credits: h.credits, At: s.utcNow()}
	err := s.commits.submit(journalRecord{Usage: usage, Day: h.day, Month: h.month})

	a.mu.Lock()
	a.held -= h.credits
	if err == nil {
		a.balance -= h.credits
	} else {
		a.spend = a.spend.minus(h.day, h.month, h.credits)
	}
	a.mu.Unlock()
	if err != nil {
		return fmt.Errorf("committing request %s of account %s: %w", r.RequestID, r.AccountID, err)
	}
	return nil
}

// Release forgets the hold.
func (s *boltStore) Release(ctx context.Context, r Reservation) error {
	a, ok := s.live.peek(r.AccountID)
	if !ok {
		return fmt.Errorf("releasing request %s: %w", r.RequestID, ErrUnknownReservation)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	h, ok := a.holds[r.ID]
	if !ok {
		return fmt.Errorf("releasing request %s: %w", r.RequestID, ErrUnknownReservation)
	}
	delete(a.holds, r.ID)
	a.held -= h.credits
	a.spend = a.spend.minus(h.day, h.month, h.credits)
	return nil
}

// utcNow is the store clock in UTC, for timestamps written to the file.
func (s *boltStore) utcNow() time.Time { return s.opts.Now().UTC() }
