package embedded

import (
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// Authenticate looks the key's hash up in the file (or the auth cache).
func (s *boltStore) Authenticate(ctx context.Context, presentedKey string) (ledger.KeyInfo, error) {
	h, err := ledger.ParseKey(presentedKey)
	if err != nil {
		return ledger.KeyInfo{}, err
	}
	if info, ok := s.auth.Get(h); ok {
		return info, nil
	}
	gen := s.auth.Generation()
	var info ledger.KeyInfo
	var revokedAt *time.Time
	err = s.view("authenticating a key", func(tx *bolt.Tx) error {
		keyID := tx.Bucket([]byte(bucketKeyHash)).Get(h[:])
		if keyID == nil {
			return ledger.ErrUnknownKey
		}
		var key keyRecord
		if _, err := getJSON(tx.Bucket([]byte(bucketKeys)), string(keyID), &key); err != nil {
			return err
		}
		if shared.RevokedBy(key.RevokedAt, s.opts.Now()) {
			return ledger.ErrRevokedKey
		}
		revokedAt = key.RevokedAt
		acct, err := loadAccount(tx, key.AccountID)
		if err != nil {
			return err
		}
		info = ledger.KeyInfo{KeyID: string(keyID), AccountID: key.AccountID, Kind: key.Kind,
			AccountStatus: acct.Status, RateLimit: key.RateLimit}
		return nil
	})
	if err != nil {
		return ledger.KeyInfo{}, err
	}
	s.auth.Put(h, info, gen, shared.CacheUntil(revokedAt))
	return info, nil
}

// Reserve holds credits in memory and writes the charge to the journal at
// once, so that Commit has little or nothing left to wait for. A request
// that fails has its charge cancelled by Release, durably, before its
// failure is answered. The cost is the crash window: a request that is
// still computing when the process dies has a journaled charge and no
// answer, like one whose answer had not left yet (docs/metering.md, "Crash
// and the in-flight few").
func (s *boltStore) Reserve(ctx context.Context, key ledger.KeyInfo, operation string, credits int64, requestID string) (ledger.Reservation, error) {
	if err := shared.CheckRequest(key, operation, credits, requestID); err != nil {
		return ledger.Reservation{}, err
	}
	if err := s.gate.Enter(); err != nil {
		return ledger.Reservation{}, err
	}
	defer s.gate.Exit()
	if err := s.health.check(); err != nil {
		return ledger.Reservation{}, err
	}
	a, err := s.loadedAccount(key.AccountID)
	if err != nil {
		return ledger.Reservation{}, err
	}
	if a.status != ledger.StatusActive {
		a.mu.Unlock()
		return ledger.Reservation{}, fmt.Errorf("reserving for account %s: %w", key.AccountID, ledger.ErrAccountSuspended)
	}
	now := s.opts.Now()
	sp := a.spend.At(now)
	if short := shared.CapCheck(key.AccountID, a.balance-a.held, a.caps, sp, credits); short != nil {
		a.mu.Unlock()
		return ledger.Reservation{}, short
	}
	usage := ledger.Usage{RequestID: requestID, AccountID: key.AccountID, KeyID: key.KeyID,
		Operation: operation, Credits: credits, At: now.UTC()}
	rec := journalRecord{Usage: usage, Day: sp.Day, Month: sp.Month}
	if k, ok := s.keyed.Load(requestID); ok {
		rec.Key = k.(string)
	}
	job := s.commits.newJob(rec)
	h := hold{credits: credits, day: sp.Day, month: sp.Month, charge: job}
	id := s.nextHold.Add(1)
	a.spend = sp.Plus(h.day, h.month, credits)
	a.held += credits
	a.holds[id] = h
	a.mu.Unlock()
	r := ledger.Reservation{ID: id, AccountID: key.AccountID, KeyID: key.KeyID, Operation: operation,
		RequestID: requestID, Credits: credits, At: now}
	// The charge is written outside the account's lock: the writer may be
	// writing other requests' charges too, and they need that lock to
	// reserve. A duplicate request id fails the charge, not the
	// reservation: Commit reports it, as the PostgreSQL store's does.
	if err := s.apply.claim(requestID); err != nil {
		job.finish(err)
		return r, nil
	}
	job.claimed = true
	if err := s.commits.send(job); err != nil {
		s.Release(ctx, r) // nothing was written: this only gives the credits back
		return ledger.Reservation{}, fmt.Errorf("reserving for request %s: %w", requestID, err)
	}
	return r, nil
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

// Commit returns once the charge and usage record that Reserve journaled
// are durable as Options.Sync says, and hands them to the applier, which
// writes them to bbolt in the background.
func (s *boltStore) Commit(ctx context.Context, r ledger.Reservation) error {
	if err := s.gate.Enter(); err != nil {
		return fmt.Errorf("committing request %s: %w", r.RequestID, err)
	}
	defer s.gate.Exit()
	a, h, err := s.takeHold(r, "committing")
	if err != nil {
		return err
	}
	err = h.charge.wait()
	if err == nil {
		s.open.charge(h.charge, s.apply)
	} else {
		s.open.void(h.charge, s.apply)
	}

	a.mu.Lock()
	a.held -= h.credits
	if err == nil {
		a.balance -= h.credits
	} else {
		a.spend = a.spend.Minus(h.day, h.month, h.credits)
	}
	a.mu.Unlock()
	if err != nil {
		return fmt.Errorf("committing request %s of account %s: %w", r.RequestID, r.AccountID, err)
	}
	return nil
}

// Release cancels the charge Reserve journaled, durably, and gives the
// credits back.
func (s *boltStore) Release(ctx context.Context, r ledger.Reservation) error {
	if err := s.gate.Enter(); err != nil {
		return fmt.Errorf("releasing request %s: %w", r.RequestID, err) // Close cancels the hold
	}
	defer s.gate.Exit()
	a, h, err := s.takeHold(r, "releasing")
	if err != nil {
		return err
	}
	return s.cancel(a, h)
}

// takeHold removes reservation r's hold from its account: from then on
// neither Commit nor Release can take it again; held still counts it.
func (s *boltStore) takeHold(r ledger.Reservation, doing string) (*liveAccount, hold, error) {
	a, ok := s.live.peek(r.AccountID)
	if !ok {
		return nil, hold{}, fmt.Errorf("%s request %s: %w", doing, r.RequestID, ledger.ErrUnknownReservation)
	}
	a.mu.Lock()
	h, ok := a.holds[r.ID]
	delete(a.holds, r.ID)
	a.mu.Unlock()
	if !ok {
		return nil, hold{}, fmt.Errorf("%s request %s: %w", doing, r.RequestID, ledger.ErrUnknownReservation)
	}
	return a, h, nil
}

// cancel voids a taken hold's charge: once its journal write is done, a
// cancellation record goes after it and is synced, then the credits are
// free again. If the charge was never written there is nothing to cancel.
// If the cancellation cannot be written the charge stands (a reopen
// replays it), and the account's view and bbolt say so.
func (s *boltStore) cancel(a *liveAccount, h hold) error {
	var err error
	if h.charge.wait() == nil {
		// Void before the cancellation is written: a start-over in between must
		// not carry the charge into a new epoch without it.
		s.open.void(h.charge, s.apply)
		rec := h.charge.rec
		rec.Cancel = true
		if err = s.commits.submit(rec); err != nil {
			s.open.charge(h.charge, s.apply)
		}
	} else {
		s.open.void(h.charge, s.apply)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.held -= h.credits
	if err != nil {
		a.balance -= h.credits
		return fmt.Errorf("cancelling the charge of request %s of account %s: %w", h.charge.rec.RequestID, h.charge.rec.AccountID, err)
	}
	a.spend = a.spend.Minus(h.day, h.month, h.credits)
	return nil
}

// cancelOutstanding cancels the charges of every reservation still held,
// so that a clean Close gives their credits back, as it did when holds
// lived only in memory. Call it before the committer closes.
func (s *boltStore) cancelOutstanding() {
	s.live.mu.Lock()
	accounts := make([]*liveAccount, 0, len(s.live.accounts))
	for _, a := range s.live.accounts {
		accounts = append(accounts, a)
	}
	s.live.mu.Unlock()
	for _, a := range accounts {
		a.mu.Lock()
		holds := a.holds
		a.holds = make(map[int64]hold)
		a.mu.Unlock()
		for _, h := range holds {
			s.cancel(a, h)
		}
	}
}

// utcNow is the store clock in UTC, for timestamps written to the file.
func (s *boltStore) utcNow() time.Time { return s.opts.Now().UTC() }
