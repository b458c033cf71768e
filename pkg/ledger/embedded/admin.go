package embedded

import (
	"bytes"
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// CreateAccount writes the account, its first grant and its first secret key
// in one transaction.
func (s *boltStore) CreateAccount(ctx context.Context, credits int64, caps *ledger.Caps) (ledger.NewAccount, error) {
	c, err := shared.AccountCaps(credits, caps)
	if err != nil {
		return ledger.NewAccount{}, err
	}
	accountID := shared.NewID("acct_")
	secret, hash, err := ledger.NewKey(ledger.KindSecret)
	if err != nil {
		return ledger.NewAccount{}, err
	}
	key := ledger.IssuedKey{KeyID: shared.NewID("key_"), AccountID: accountID, Kind: ledger.KindSecret, Secret: secret}
	now := s.utcNow()
	err = s.update("creating an account", func(tx *bolt.Tx) error {
		rec := accountRecord{Status: ledger.StatusActive, Caps: c, CreatedAt: now, Ops: map[string]ledger.OperationTotals{}}
		if err := storeAccount(tx, accountID, rec); err != nil {
			return err
		}
		if err := putKey(tx, key, hash, now); err != nil {
			return err
		}
		if credits > 0 {
			_, err := addGrant(tx, accountID, credits, now)
			return err
		}
		return nil
	})
	if err != nil {
		return ledger.NewAccount{}, err
	}
	return ledger.NewAccount{AccountID: accountID, Key: key}, nil
}

func putKey(tx *bolt.Tx, key ledger.IssuedKey, hash shared.KeyHash, now time.Time) error {
	rec := keyRecord{AccountID: key.AccountID, Kind: key.Kind, Hash: hash[:], RateLimit: key.RateLimit, CreatedAt: now}
	if err := putJSON(tx.Bucket([]byte(bucketKeys)), []byte(key.KeyID), rec); err != nil {
		return err
	}
	if err := tx.Bucket([]byte(bucketKeyHash)).Put(hash[:], []byte(key.KeyID)); err != nil {
		return err
	}
	return tx.Bucket([]byte(bucketAcctKeys)).Put(indexKey(key.AccountID, []byte(key.KeyID)), nil)
}

// addGrant records a grant and raises the durable balance.
func addGrant(tx *bolt.Tx, accountID string, credits int64, now time.Time) (int64, error) {
	acct, err := loadAccount(tx, accountID)
	if err != nil {
		return 0, err
	}
	grants := tx.Bucket([]byte(bucketGrants))
	seq, err := grants.NextSequence()
	if err != nil {
		return 0, err
	}
	if err := putJSON(grants, grantKey(accountID, seq), grantRecord{Credits: credits, At: now}); err != nil {
		return 0, err
	}
	acct.Balance += credits
	return acct.Balance, storeAccount(tx, accountID, acct)
}

// changeAccount applies change to the durable record and then to the live
// view (if loaded), holding the live entry's lock across both so that a
// concurrent first load cannot see the change twice.
func (s *boltStore) changeAccount(what, accountID string, change func(*accountRecord) error, live func(*liveAccount)) error {
	a := s.live.get(accountID)
	a.mu.Lock()
	defer a.mu.Unlock()
	err := s.update(what+" of account "+accountID, func(tx *bolt.Tx) error {
		rec, err := loadAccount(tx, accountID)
		if err != nil {
			return err
		}
		if err := change(&rec); err != nil {
			return err
		}
		return storeAccount(tx, accountID, rec)
	})
	if err != nil {
		return err
	}
	if a.loaded {
		live(a)
	}
	s.auth.Purge()
	return nil
}

func (s *boltStore) setStatus(accountID string, status ledger.AccountStatus) error {
	return s.changeAccount("setting status "+string(status), accountID,
		func(r *accountRecord) error { r.Status = status; return nil },
		func(a *liveAccount) { a.status = status })
}

// Suspend marks the account suspended; Reserve refuses it at once.
func (s *boltStore) Suspend(ctx context.Context, accountID string) error {
	return s.setStatus(accountID, ledger.StatusSuspended)
}

// Restore reactivates the account.
func (s *boltStore) Restore(ctx context.Context, accountID string) error {
	return s.setStatus(accountID, ledger.StatusActive)
}

// SetCaps replaces the account's caps.
func (s *boltStore) SetCaps(ctx context.Context, accountID string, caps ledger.Caps) error {
	if caps.Daily < 0 || caps.Monthly < 0 {
		return fmt.Errorf("%w: caps %+v must be >= 0", ledger.ErrInvalidArgument, caps)
	}
	return s.changeAccount("setting caps", accountID,
		func(r *accountRecord) error { r.Caps = caps; return nil },
		func(a *liveAccount) { a.caps = caps })
}

// AddCredits records a grant and returns the new balance.
func (s *boltStore) AddCredits(ctx context.Context, accountID string, credits int64) (int64, error) {
	if credits <= 0 {
		return 0, fmt.Errorf("%w: credits %d to add to account %s must be > 0", ledger.ErrInvalidArgument, credits, accountID)
	}
	if err := s.applied(); err != nil {
		return 0, err
	}
	a := s.live.get(accountID)
	a.mu.Lock()
	defer a.mu.Unlock()
	var balance int64
	err := s.update("adding credits to account "+accountID, func(tx *bolt.Tx) error {
		var err error
		balance, err = addGrant(tx, accountID, credits, s.utcNow())
		return err
	})
	if err != nil {
		return 0, err
	}
	if a.loaded {
		a.balance += credits
	}
	return balance, nil
}

// IssueKey adds a key to an existing account.
func (s *boltStore) IssueKey(ctx context.Context, accountID string, kind ledger.KeyKind, rateLimit int) (ledger.IssuedKey, error) {
	key, hash, err := shared.PrepareKey(accountID, kind, rateLimit)
	if err != nil {
		return ledger.IssuedKey{}, err
	}
	err = s.update("issuing a key for account "+accountID, func(tx *bolt.Tx) error {
		if _, err := loadAccount(tx, accountID); err != nil {
			return err
		}
		return putKey(tx, key, hash, s.utcNow())
	})
	if err != nil {
		return ledger.IssuedKey{}, err
	}
	return key, nil
}

// RevokeKey marks the key revoked.
func (s *boltStore) RevokeKey(ctx context.Context, keyID string) error {
	err := s.update("revoking key "+keyID, func(tx *bolt.Tx) error {
		keys := tx.Bucket([]byte(bucketKeys))
		var rec keyRecord
		found, err := getJSON(keys, keyID, &rec)
		if err != nil {
			return err
		}
		if !found {
			return ledger.ErrUnknownKeyID
		}
		now := s.utcNow()
		if shared.RevokedBy(rec.RevokedAt, now) {
			return nil
		}
		rec.RevokedAt = &now
		return putJSON(keys, []byte(keyID), rec)
	})
	s.auth.Purge()
	return err
}

// LookupUsage reads one usage record.
func (s *boltStore) LookupUsage(ctx context.Context, requestID string) (ledger.Usage, error) {
	if err := s.applied(); err != nil {
		return ledger.Usage{}, err
	}
	var u ledger.Usage
	err := s.view("looking up request "+requestID, func(tx *bolt.Tx) error {
		found, err := getJSON(tx.Bucket([]byte(bucketUsage)), requestID, &u)
		if err == nil && !found {
			err = ledger.ErrUnknownRequest
		}
		return err
	})
	return u, err
}

// GetAccount reads the durable record, its keys, and the live holds.
func (s *boltStore) GetAccount(ctx context.Context, accountID string) (ledger.Account, error) {
	if err := s.applied(); err != nil {
		return ledger.Account{}, err
	}
	var acct ledger.Account
	err := s.view("reading account "+accountID, func(tx *bolt.Tx) error {
		rec, err := loadAccount(tx, accountID)
		if err != nil {
			return err
		}
		acct = accountView(accountID, rec, s.opts.Now())
		acct.Keys, err = accountKeys(tx, accountID)
		return err
	})
	if err != nil {
		return ledger.Account{}, err
	}
	if a, ok := s.live.peek(accountID); ok {
		a.mu.Lock()
		acct.Held = a.held
		a.mu.Unlock()
	}
	return acct, nil
}

func accountView(accountID string, rec accountRecord, now time.Time) ledger.Account {
	sp := rec.Spend.At(now)
	ops := make(map[string]ledger.OperationTotals, len(rec.Ops))
	for op, t := range rec.Ops {
		ops[op] = t
	}
	return ledger.Account{ID: accountID, Status: rec.Status, Balance: rec.Balance, Caps: rec.Caps, CreatedAt: rec.CreatedAt,
		Usage: ledger.UsageTotals{Today: sp.DaySpent, ThisMonth: sp.MonthSpent, AllTime: rec.Charged,
			Requests: rec.Requests, ByOperation: ops}}
}

func accountKeys(tx *bolt.Tx, accountID string) ([]ledger.KeySummary, error) {
	prefix := indexKey(accountID, nil)
	keys := tx.Bucket([]byte(bucketKeys))
	out := []ledger.KeySummary{}
	c := tx.Bucket([]byte(bucketAcctKeys)).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keyID := string(k[len(prefix):])
		var rec keyRecord
		if _, err := getJSON(keys, keyID, &rec); err != nil {
			return nil, err
		}
		out = append(out, ledger.KeySummary{KeyID: keyID, Kind: rec.Kind, RateLimit: rec.RateLimit,
			CreatedAt: rec.CreatedAt, RevokedAt: rec.RevokedAt})
	}
	return out, nil
}

// applied waits until every charge committed so far is in bbolt, for the
// readers of balances and usage records.
func (s *boltStore) applied() error {
	if err := s.apply.barrier(); err != nil {
		return fmt.Errorf("reading the ledger %s: %w", s.path, err)
	}
	return nil
}

// FindKey reads one key by id, or by hash through the hash index.
func (s *boltStore) FindKey(ctx context.Context, ref ledger.KeyRef) (ledger.KeyDetail, error) {
	h, err := shared.ParseRef(ref)
	if err != nil {
		return ledger.KeyDetail{}, err
	}
	var d ledger.KeyDetail
	err = s.view("finding "+shared.Describe(ref), func(tx *bolt.Tx) error {
		keyID := ref.KeyID
		if ref.Hash != "" {
			keyID = string(tx.Bucket([]byte(bucketKeyHash)).Get(h[:]))
		}
		var rec keyRecord
		found, err := getJSON(tx.Bucket([]byte(bucketKeys)), keyID, &rec)
		switch {
		case err != nil:
			return err
		case !found || keyID == "":
			return ledger.ErrUnknownKeyID
		}
		d = ledger.KeyDetail{AccountID: rec.AccountID, KeySummary: ledger.KeySummary{KeyID: keyID, Kind: rec.Kind,
			RateLimit: rec.RateLimit, CreatedAt: rec.CreatedAt, RevokedAt: rec.RevokedAt}}
		return nil
	})
	return d, err
}
