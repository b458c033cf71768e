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

const pgAuthenticate = `
SELECT k.id, k.account_id, k.kind, k.rate_limit, k.revoked_at, a.status
FROM ledger_keys k JOIN ledger_accounts a ON a.id = k.account_id
WHERE k.hash = $1`

// Authenticate looks the key's hash up (or answers from the auth cache).
func (s *postgresStore) Authenticate(ctx context.Context, presentedKey string) (ledger.KeyInfo, error) {
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
	ctx, cancel := context.WithTimeout(ctx, pgCallTimeout)
	defer cancel()
	err = s.pool.QueryRow(ctx, pgAuthenticate, h[:]).Scan(
		&info.KeyID, &info.AccountID, &info.Kind, &info.RateLimit, &revokedAt, &info.AccountStatus)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return ledger.KeyInfo{}, ledger.ErrUnknownKey
	case err != nil:
		return ledger.KeyInfo{}, s.fail("authenticating a key", err)
	case shared.RevokedBy(revokedAt, s.opts.Now()):
		return ledger.KeyInfo{}, ledger.ErrRevokedKey
	}
	s.auth.Put(h, info, gen, shared.CacheUntil(revokedAt))
	return info, nil
}

// Reserve calls ledger_reserve (see the schema), which locks the account
// row, checks status, balance and caps, and takes the credits into a hold,
// in one round trip. A refusal comes back with the figures it was based on.
func (s *postgresStore) Reserve(ctx context.Context, key ledger.KeyInfo, operation string, credits int64, requestID string) (ledger.Reservation, error) {
	if err := shared.CheckRequest(key, operation, credits, requestID); err != nil {
		return ledger.Reservation{}, err
	}
	if err := s.gate.Enter(); err != nil {
		return ledger.Reservation{}, err
	}
	defer s.gate.Exit()
	ctx, cancel := context.WithTimeout(ctx, pgCallTimeout)
	defer cancel()
	now := s.opts.Now()
	var holdID *int64
	var status *string
	var available int64
	var caps ledger.Caps
	var sp shared.Spend
	err := s.pool.QueryRow(ctx, `SELECT o_hold_id, o_status, coalesce(o_balance, 0),
		coalesce(o_daily_cap, 0), coalesce(o_monthly_cap, 0), coalesce(o_day_spent, 0), coalesce(o_month_spent, 0)
		FROM ledger_reserve($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		key.AccountID, credits, shared.DayOf(now), shared.MonthOf(now), key.KeyID, operation, requestID, now, now.Add(s.opts.HoldTTL)).Scan(
		&holdID, &status, &available, &caps.Daily, &caps.Monthly, &sp.DaySpent, &sp.MonthSpent)
	switch {
	case err != nil:
		return ledger.Reservation{}, s.fail("reserving credits for account "+key.AccountID, err)
	case holdID != nil:
		return ledger.Reservation{ID: *holdID, AccountID: key.AccountID, KeyID: key.KeyID, Operation: operation,
			RequestID: requestID, Credits: credits, At: now}, nil
	case status == nil:
		return ledger.Reservation{}, fmt.Errorf("reserving for account %s: %w", key.AccountID, ledger.ErrUnknownAccount)
	case ledger.AccountStatus(*status) != ledger.StatusActive:
		return ledger.Reservation{}, fmt.Errorf("reserving for account %s: %w", key.AccountID, ledger.ErrAccountSuspended)
	}
	if short := shared.CapCheck(key.AccountID, available, caps, sp, credits); short != nil {
		return ledger.Reservation{}, short
	}
	return ledger.Reservation{}, fmt.Errorf("reserving for account %s: ledger_reserve refused %d credits that fit (available %d)",
		key.AccountID, credits, available)
}

// Commit charges the hold with ledger_commit (see the schema, version 2):
// the server moves the hold into a usage record, all or nothing, if it runs
// the commit by a deadline pgCommitBudget away in its own clock, and gives
// the credits back if it runs it later. A commit whose outcome mapd did not
// learn is voided once the server answers (void.go): an error
// from Commit never leaves a charge behind. It does not touch the account
// row (the credits left the balance at Reserve), so commits of one account
// do not wait for each other, and it returns after the WAL flush
// (synchronous_commit is PostgreSQL's default).
func (s *postgresStore) Commit(ctx context.Context, r ledger.Reservation) error {
	if err := s.gate.Enter(); err != nil {
		return fmt.Errorf("committing request %s: %w", r.RequestID, err) // its hold expires
	}
	defer s.gate.Exit()
	ctx, cancel := context.WithTimeout(ctx, pgCallTimeout)
	defer cancel()
	deadline := s.serverNow().Add(pgCommitBudget)
	var outcome string
	var credits *int64
	err := s.pool.QueryRow(ctx, `SELECT o_outcome, o_credits FROM ledger_commit($1, $2, $3, $4)`,
		r.ID, r.AccountID, s.opts.Now().UTC(), deadline).Scan(&outcome, &credits)
	what := "committing request " + r.RequestID + " of account " + r.AccountID
	switch {
	case err != nil:
		err = s.fail(what, err)
		if errors.Is(err, ledger.ErrDuplicateRequest) {
			// Nothing was charged; give the hold back rather than let it expire.
			_ = s.Release(ctx, r)
		} else {
			s.voids.add(r, "commit unanswered: "+err.Error())
		}
		return err
	case outcome == "gone":
		return fmt.Errorf("%s: %w", what, ledger.ErrUnknownReservation)
	case outcome == "late":
		return fmt.Errorf("%w: %s: %w", ledger.ErrUnavailable, what, errLate)
	}
	return nil
}

// pgRelease deletes a hold and gives its credits back, taking them out of
// the spend counters if these still count the hold's day and month. Like a
// hold, a release need not wait for the WAL flush: if it is lost in a
// server crash, the hold is back and expires.
const pgRelease = `
WITH hold AS (
	DELETE FROM ledger_holds WHERE id = $1 AND account_id = $2
	RETURNING account_id, credits, spend_day, spend_month
), async AS (
	SELECT set_config('synchronous_commit', 'off', true)
)
UPDATE ledger_accounts a SET
	balance = a.balance + hold.credits,
	day_spent = CASE WHEN a.spend_day = hold.spend_day THEN a.day_spent - hold.credits ELSE a.day_spent END,
	month_spent = CASE WHEN a.spend_month = hold.spend_month THEN a.month_spent - hold.credits ELSE a.month_spent END
FROM hold, async WHERE a.id = hold.account_id
RETURNING a.id`

// Release deletes the hold and gives its credits back.
func (s *postgresStore) Release(ctx context.Context, r ledger.Reservation) error {
	ctx, cancel := context.WithTimeout(ctx, pgCallTimeout)
	defer cancel()
	var id string
	err := s.pool.QueryRow(ctx, pgRelease, r.ID, r.AccountID).Scan(&id)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("releasing request %s: %w", r.RequestID, ledger.ErrUnknownReservation)
	case err != nil:
		err = s.fail("releasing request "+r.RequestID, err)
		s.voids.add(r, "release unanswered: "+err.Error()) // give the credits back once the server answers
		return err
	}
	return nil
}

// pgSweepLock keeps replicas from sweeping at the same time; the sweeper is
// then the only transaction that locks several account rows, so it cannot
// deadlock with Reserve or Release (one row each).
const pgSweepLock = pgMigrationLock + 1

// sweepBatch bounds the holds one sweep transaction returns.
const sweepBatch = 1000

// sweepExpiredHolds gives back the credits of holds past their expiry
// (their request crashed or never finished). SKIP LOCKED leaves alone holds
// that a Commit or Release is deleting right now.
func (s *postgresStore) sweepExpiredHolds(ctx context.Context) error {
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var got bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, pgSweepLock).Scan(&got); err != nil || !got {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT id, account_id FROM ledger_holds WHERE expires_at < $1
			ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`, s.opts.Now(), sweepBatch)
		if err != nil {
			return err
		}
		expired, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct {
			ID      int64
			Account string
		}])
		if err != nil {
			return err
		}
		for _, h := range expired {
			if _, err := tx.Exec(ctx, pgRelease, h.ID, h.Account); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return s.fail("returning expired holds", err)
	}
	return nil
}
