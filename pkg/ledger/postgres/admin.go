package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// CreateAccount inserts the account, its first grant and its first secret
// key in one transaction.
func (s *postgresStore) CreateAccount(ctx context.Context, credits int64, caps *ledger.Caps) (ledger.NewAccount, error) {
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
	now := s.opts.Now().UTC()
	err = s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO ledger_accounts (id, status, balance, daily_cap, monthly_cap, created_at)
			VALUES ($1, 'active', $2, $3, $4, $5)`, accountID, credits, c.Daily, c.Monthly, now); err != nil {
			return err
		}
		if credits > 0 {
			if _, err := tx.Exec(ctx, `INSERT INTO ledger_grants (account_id, credits, created_at) VALUES ($1, $2, $3)`,
				accountID, credits, now); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO ledger_keys (id, account_id, hash, kind, rate_limit, created_at)
			VALUES ($1, $2, $3, $4, 0, $5)`, key.KeyID, accountID, hash[:], string(ledger.KindSecret), now)
		return err
	})
	if err != nil {
		return ledger.NewAccount{}, s.fail("creating an account", err)
	}
	return ledger.NewAccount{AccountID: accountID, Key: key}, nil
}

// exec1 runs a statement that must touch one row; no row means notFound.
func (s *postgresStore) exec1(ctx context.Context, what string, notFound error, sql string, args ...any) error {
	tag, err := s.pool.Exec(ctx, sql, args...)
	if err != nil {
		return s.fail(what, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%s: %w", what, notFound)
	}
	return nil
}

func (s *postgresStore) setStatus(ctx context.Context, accountID string, status ledger.AccountStatus) error {
	defer s.auth.Purge()
	return s.exec1(ctx, "setting status of account "+accountID, ledger.ErrUnknownAccount,
		`UPDATE ledger_accounts SET status = $2 WHERE id = $1`, accountID, string(status))
}

// Suspend marks the account suspended; Reserve refuses it at once on every
// replica.
func (s *postgresStore) Suspend(ctx context.Context, accountID string) error {
	return s.setStatus(ctx, accountID, ledger.StatusSuspended)
}

// Restore reactivates the account.
func (s *postgresStore) Restore(ctx context.Context, accountID string) error {
	return s.setStatus(ctx, accountID, ledger.StatusActive)
}

// SetCaps replaces the account's caps.
func (s *postgresStore) SetCaps(ctx context.Context, accountID string, caps ledger.Caps) error {
	if caps.Daily < 0 || caps.Monthly < 0 {
		return fmt.Errorf("%w: caps %+v must be >= 0", ledger.ErrInvalidArgument, caps)
	}
	return s.exec1(ctx, "setting caps of account "+accountID, ledger.ErrUnknownAccount,
		`UPDATE ledger_accounts SET daily_cap = $2, monthly_cap = $3 WHERE id = $1`, accountID, caps.Daily, caps.Monthly)
}

// AddCredits records a grant and raises the balance in one statement. The
// balance it returns includes outstanding holds, as GetAccount's does.
func (s *postgresStore) AddCredits(ctx context.Context, accountID string, credits int64) (int64, error) {
	if credits <= 0 {
		return 0, fmt.Errorf("%w: credits %d to add to account %s must be > 0", ledger.ErrInvalidArgument, credits, accountID)
	}
	var balance int64
	err := s.pool.QueryRow(ctx, `
		WITH acct AS (
			UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1 RETURNING id, balance
		), grant_row AS (
			INSERT INTO ledger_grants (account_id, credits, created_at) SELECT id, $2, $3 FROM acct
		)
		SELECT balance + (SELECT coalesce(sum(credits), 0) FROM ledger_holds WHERE account_id = $1) FROM acct`, accountID, credits, s.opts.Now().UTC()).Scan(&balance)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, fmt.Errorf("adding credits to account %s: %w", accountID, ledger.ErrUnknownAccount)
	case err != nil:
		return 0, s.fail("adding credits to account "+accountID, err)
	}
	return balance, nil
}

// IssueKey adds a key to an existing account.
func (s *postgresStore) IssueKey(ctx context.Context, accountID string, kind ledger.KeyKind, rateLimit int) (ledger.IssuedKey, error) {
	key, hash, err := shared.PrepareKey(accountID, kind, rateLimit)
	if err != nil {
		return ledger.IssuedKey{}, err
	}
	err = s.exec1(ctx, "issuing a key for account "+accountID, ledger.ErrUnknownAccount, `
		INSERT INTO ledger_keys (id, account_id, hash, kind, rate_limit, created_at)
		SELECT $1, id, $3, $4, $5, $6 FROM ledger_accounts WHERE id = $2`,
		key.KeyID, accountID, hash[:], string(kind), rateLimit, s.opts.Now().UTC())
	if err != nil {
		return ledger.IssuedKey{}, err
	}
	return key, nil
}

// RevokeKey marks the key revoked now (keeping an earlier revocation time,
// replacing a later one that a rotation scheduled).
func (s *postgresStore) RevokeKey(ctx context.Context, keyID string) error {
	defer s.auth.Purge()
	return s.exec1(ctx, "revoking key "+keyID, ledger.ErrUnknownKeyID,
		`UPDATE ledger_keys SET revoked_at = least(coalesce(revoked_at, $2), $2) WHERE id = $1`, keyID, s.opts.Now().UTC())
}

// LookupUsage reads one usage record.
func (s *postgresStore) LookupUsage(ctx context.Context, requestID string) (ledger.Usage, error) {
	u := ledger.Usage{RequestID: requestID}
	err := s.pool.QueryRow(ctx, `SELECT account_id, key_id, operation, credits, created_at
		FROM ledger_usage WHERE request_id = $1`, requestID).Scan(&u.AccountID, &u.KeyID, &u.Operation, &u.Credits, &u.At)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return ledger.Usage{}, fmt.Errorf("looking up request %s: %w", requestID, ledger.ErrUnknownRequest)
	case err != nil:
		return ledger.Usage{}, s.fail("looking up request "+requestID, err)
	}
	u.At = u.At.UTC()
	return u, nil
}

// GetAccount reads the account, its holds, keys and usage totals in one
// repeatable-read snapshot.
func (s *postgresStore) GetAccount(ctx context.Context, accountID string) (ledger.Account, error) {
	var acct ledger.Account
	err := s.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if err := s.readAccount(ctx, tx, accountID, &acct); err != nil {
			return err
		}
		var err error
		acct.Keys, err = pgAccountKeys(ctx, tx, accountID)
		return err
	})
	if err != nil {
		return ledger.Account{}, s.fail("reading account "+accountID, err)
	}
	return acct, nil
}

// readAccount fills acct from the account row, its holds and its usage
// records. The stored balance excludes holds; Account.Balance includes
// them, as in the embedded store.
func (s *postgresStore) readAccount(ctx context.Context, tx pgx.Tx, accountID string, acct *ledger.Account) error {
	acct.ID = accountID
	var available int64
	err := tx.QueryRow(ctx, `
		SELECT a.status, a.balance, a.daily_cap, a.monthly_cap, a.created_at,
		       (SELECT coalesce(sum(credits), 0) FROM ledger_holds h WHERE h.account_id = a.id)
		FROM ledger_accounts a WHERE a.id = $1`, accountID).Scan(&acct.Status, &available,
		&acct.Caps.Daily, &acct.Caps.Monthly, &acct.CreatedAt, &acct.Held)
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.ErrUnknownAccount
	}
	if err != nil {
		return err
	}
	acct.Balance = available + acct.Held
	acct.CreatedAt = acct.CreatedAt.UTC()
	acct.Usage, err = pgUsageTotals(ctx, tx, accountID, s.opts.Now())
	return err
}

// pgUsageTotals sums the account's usage records per operation, and those
// of the current UTC day and month.
func pgUsageTotals(ctx context.Context, tx pgx.Tx, accountID string, now time.Time) (ledger.UsageTotals, error) {
	y, m, d := now.UTC().Date()
	dayStart := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	monthStart := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	rows, err := tx.Query(ctx, `
		SELECT operation, sum(credits), count(*),
		       coalesce(sum(credits) FILTER (WHERE created_at >= $2), 0),
		       coalesce(sum(credits) FILTER (WHERE created_at >= $3), 0)
		FROM ledger_usage WHERE account_id = $1 GROUP BY operation`, accountID, dayStart, monthStart)
	if err != nil {
		return ledger.UsageTotals{}, err
	}
	defer rows.Close()
	totals := ledger.UsageTotals{ByOperation: map[string]ledger.OperationTotals{}}
	for rows.Next() {
		var op string
		var t ledger.OperationTotals
		var today, month int64
		if err := rows.Scan(&op, &t.Credits, &t.Requests, &today, &month); err != nil {
			return ledger.UsageTotals{}, err
		}
		totals.ByOperation[op] = t
		totals.AllTime += t.Credits
		totals.Requests += t.Requests
		totals.Today += today
		totals.ThisMonth += month
	}
	return totals, rows.Err()
}

func pgAccountKeys(ctx context.Context, tx pgx.Tx, accountID string) ([]ledger.KeySummary, error) {
	rows, err := tx.Query(ctx, `SELECT id, kind, rate_limit, created_at, revoked_at FROM ledger_keys
		WHERE account_id = $1 ORDER BY id`, accountID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	keys := []ledger.KeySummary{}
	for rows.Next() {
		var k ledger.KeySummary
		var revoked *time.Time
		if err := rows.Scan(&k.KeyID, &k.Kind, &k.RateLimit, &k.CreatedAt, &revoked); err != nil {
			return nil, err
		}
		k.CreatedAt = k.CreatedAt.UTC()
		if revoked != nil {
			r := revoked.UTC()
			k.RevokedAt = &r
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// FindKey reads one key by id or by hash.
func (s *postgresStore) FindKey(ctx context.Context, ref ledger.KeyRef) (ledger.KeyDetail, error) {
	h, err := shared.ParseRef(ref)
	if err != nil {
		return ledger.KeyDetail{}, err
	}
	query, arg := `WHERE id = $1`, any(ref.KeyID)
	if ref.Hash != "" {
		query, arg = `WHERE hash = $1`, h[:]
	}
	var d ledger.KeyDetail
	var kind string
	err = s.pool.QueryRow(ctx, `SELECT id, account_id, kind, rate_limit, created_at, revoked_at FROM ledger_keys `+query, arg).
		Scan(&d.KeyID, &d.AccountID, &kind, &d.RateLimit, &d.CreatedAt, &d.RevokedAt)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return ledger.KeyDetail{}, fmt.Errorf("finding %s: %w", shared.Describe(ref), ledger.ErrUnknownKeyID)
	case err != nil:
		return ledger.KeyDetail{}, s.fail("finding "+shared.Describe(ref), err)
	}
	d.Kind, d.CreatedAt = ledger.KeyKind(kind), d.CreatedAt.UTC()
	if d.RevokedAt != nil {
		t := d.RevokedAt.UTC()
		d.RevokedAt = &t
	}
	return d, nil
}
