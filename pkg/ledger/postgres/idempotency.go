package postgres

import (
	"context"
	"crypto/sha256"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// The PostgreSQL store keeps claims and answers in ledger_idempotency,
// shared by the replicas. A row is a claim; answer is set by Complete.
//
// Whether a claim without a charge blocks a retry: for the lease after it
// was claimed or completed, which covers the request's whole life (mapd
// sets it to --compute-timeout plus 10 s). After that, another replica
// takes the key over, giving back the credits the first request still
// holds (voidHold): its mapd was killed, or it outlived its deadline, so
// it was never answered 200. A takeover cannot lead to a second charge:
// the first request then has no hold, so its Commit fails, and its
// Complete finds the row claimed by another request id.
//
// The table is created with IF NOT EXISTS under the migration lock rather
// than as a step of pgMigrations, so that this file stays separate from the
// schema's versions (issue 19 was split between two engineers); fold it
// into the next migration when convenient.
const pgIdempotencySchema = `
CREATE TABLE IF NOT EXISTS ledger_idempotency (
	account_id  text NOT NULL,
	key         text NOT NULL,
	fingerprint bytea NOT NULL,
	request_id  text NOT NULL,
	answer      bytea,
	created_at  timestamptz NOT NULL,
	updated_at  timestamptz NOT NULL,
	PRIMARY KEY (account_id, key)
);
CREATE INDEX IF NOT EXISTS ledger_idempotency_created ON ledger_idempotency (created_at);
ALTER TABLE ledger_idempotency ADD COLUMN IF NOT EXISTS answer_sha256 bytea;`

type postgresIdempotency struct {
	s    *postgresStore
	opts ledger.IdempotencyOptions
}

// OpenIdempotency returns the store's idempotency keys (ledger.OpenIdempotency
// calls it, with opts' defaults filled in), creating their table if needed.
func (s *postgresStore) OpenIdempotency(ctx context.Context, opts ledger.IdempotencyOptions) (ledger.Idempotency, error) {
	return openPostgresIdempotency(ctx, s, opts)
}

func openPostgresIdempotency(ctx context.Context, s *postgresStore, opts ledger.IdempotencyOptions) (*postgresIdempotency, error) {
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, pgMigrationLock); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, pgIdempotencySchema)
		return err
	})
	if err != nil {
		return nil, s.fail("creating the idempotency table", err)
	}
	return &postgresIdempotency{s: s, opts: opts}, nil
}

// pgIdempotencyRow reads a key's row with whether its request was charged
// and whether it still holds credits, and locks it for Begin's decision.
const pgIdempotencyRow = `
SELECT i.fingerprint, i.request_id, i.answer, i.answer_sha256, i.created_at, i.updated_at,
	(SELECT u.credits FROM ledger_usage u WHERE u.request_id = i.request_id),
	EXISTS (SELECT 1 FROM ledger_holds h WHERE h.account_id = i.account_id AND h.request_id = i.request_id)
FROM ledger_idempotency i WHERE i.account_id = $1 AND i.key = $2 FOR UPDATE OF i`

type pgIdempotencyState struct {
	fingerprint        []byte
	requestID          string
	answer, answerHash []byte
	created, updated   time.Time
	credits            *int64 // its usage record's, nil when not charged
	holdsCredit        bool
}

// Begin decides in one transaction, the row locked. A claim need not
// survive a server crash (its request would fail to commit too), so the
// transaction does not wait for the WAL flush.
func (p *postgresIdempotency) Begin(ctx context.Context, c ledger.Claim) (*ledger.Replay, error) {
	ctx, cancel := context.WithTimeout(ctx, pgCallTimeout)
	defer cancel()
	var replay *ledger.Replay
	err := p.s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL synchronous_commit = off`); err != nil {
			return err
		}
		var st pgIdempotencyState
		err := tx.QueryRow(ctx, pgIdempotencyRow, c.AccountID, c.Key).Scan(&st.fingerprint, &st.requestID, &st.answer,
			&st.answerHash, &st.created, &st.updated, &st.credits, &st.holdsCredit)
		if errors.Is(err, pgx.ErrNoRows) {
			return p.insert(ctx, tx, c)
		}
		if err != nil {
			return err
		}
		replay, err = p.decide(st, c)
		if replay != nil || err != nil {
			return err
		}
		if st.holdsCredit {
			if err := p.voidHold(ctx, tx, c, st.requestID); err != nil {
				return err
			}
		}
		return p.takeOver(ctx, tx, c)
	})
	if err != nil && !errors.Is(err, ledger.ErrIdempotencyKeyReused) && !errors.Is(err, ledger.ErrIdempotencyInProgress) {
		return nil, p.s.fail("claiming an idempotency key", err)
	}
	return replay, err
}

// decide returns the stored answer or why the key cannot be claimed, or
// nil, nil when it may be taken over.
func (p *postgresIdempotency) decide(st pgIdempotencyState, c ledger.Claim) (*ledger.Replay, error) {
	now := p.opts.Now()
	switch {
	case now.Sub(st.created) > p.opts.TTL:
		return nil, nil // expired: a new request
	case string(st.fingerprint) != string(c.Fingerprint[:]):
		return nil, ledger.ErrIdempotencyKeyReused
	case st.credits != nil && st.answer != nil:
		return shared.ReplayOf(st.requestID, st.answer, false, *st.credits), nil
	case st.credits != nil && len(st.answerHash) == sha256.Size:
		return shared.ReplayOf(st.requestID, st.answerHash, true, *st.credits), nil
	case st.credits != nil, now.Sub(st.updated) < p.opts.Lease:
		return nil, ledger.ErrIdempotencyInProgress
	}
	return nil, nil
}

// voidHold gives back the credits still held by the key's earlier request,
// whose lease passed: its mapd died (kill -9) or it outlived every
// deadline, so it was never answered 200. Once the hold is gone that
// request can no longer commit (ledger_commit finds no hold), so the
// retry that takes the key over is the only one charged. A hold already
// gone (its commit ran meanwhile) means the key may be charged: the retry
// waits and then gets the stored answer.
func (p *postgresIdempotency) voidHold(ctx context.Context, tx pgx.Tx, c ledger.Claim, requestID string) error {
	var id int64
	err := tx.QueryRow(ctx, `SELECT id FROM ledger_holds WHERE account_id = $1 AND request_id = $2 FOR UPDATE`,
		c.AccountID, requestID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.ErrIdempotencyInProgress
	}
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, pgRelease, id, c.AccountID)
	return err
}

// insert claims a key nobody holds; a replica inserting it at the same
// moment wins, and this request sees it in progress.
func (p *postgresIdempotency) insert(ctx context.Context, tx pgx.Tx, c ledger.Claim) error {
	now := p.opts.Now().UTC()
	tag, err := tx.Exec(ctx, `INSERT INTO ledger_idempotency (account_id, key, fingerprint, request_id, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (account_id, key) DO NOTHING`, c.AccountID, c.Key, c.Fingerprint[:], c.RequestID, now)
	if err == nil && tag.RowsAffected() == 0 {
		return ledger.ErrIdempotencyInProgress
	}
	return err
}

// takeOver rebinds an expired or abandoned key to c's request.
func (p *postgresIdempotency) takeOver(ctx context.Context, tx pgx.Tx, c ledger.Claim) error {
	_, err := tx.Exec(ctx, `UPDATE ledger_idempotency SET fingerprint = $3, request_id = $4, answer = NULL, answer_sha256 = NULL,
		created_at = $5, updated_at = $5 WHERE account_id = $1 AND key = $2`, c.AccountID, c.Key, c.Fingerprint[:], c.RequestID, p.opts.Now().UTC())
	return err
}

// pgIdempotencyComplete stores the answer without waiting for the WAL
// flush: Commit's flush, which comes after, covers it (the WAL is one
// sequence), so the answer is durable no later than its charge.
const pgIdempotencyComplete = `
WITH async AS (SELECT set_config('synchronous_commit', 'off', true))
UPDATE ledger_idempotency SET answer = $4, answer_sha256 = $6, updated_at = $5
FROM async WHERE account_id = $1 AND key = $2 AND request_id = $3`

func (p *postgresIdempotency) Complete(ctx context.Context, c ledger.Claim, answer []byte) error {
	ctx, cancel := context.WithTimeout(ctx, pgCallTimeout)
	defer cancel()
	var whole, hash []byte
	if stored, hashed := shared.StoredAnswer(answer); hashed {
		hash = stored
	} else {
		whole = stored
	}
	tag, err := p.s.pool.Exec(ctx, pgIdempotencyComplete, c.AccountID, c.Key, c.RequestID, whole, p.opts.Now().UTC(), hash)
	switch {
	case err != nil:
		return p.s.fail("storing the answer of request "+c.RequestID, err)
	case tag.RowsAffected() == 0:
		return ledger.ErrIdempotencyInProgress
	}
	return nil
}

// Finish has nothing to do after a commit that charged or may have: the
// row tells a retry, through the usage record or the hold. After one that
// charged nothing it drops the claim.
func (p *postgresIdempotency) Finish(ctx context.Context, c ledger.Claim, commitErr error) error {
	if commitErr == nil || errors.Is(commitErr, ledger.ErrUnavailable) {
		return nil
	}
	return p.Abandon(ctx, c)
}

// Abandon deletes the claim if c's request still holds it; like a claim, it
// need not survive a server crash.
func (p *postgresIdempotency) Abandon(ctx context.Context, c ledger.Claim) error {
	ctx, cancel := context.WithTimeout(ctx, pgCallTimeout)
	defer cancel()
	_, err := p.s.pool.Exec(ctx, `WITH async AS (SELECT set_config('synchronous_commit', 'off', true))
		DELETE FROM ledger_idempotency USING async WHERE account_id = $1 AND key = $2 AND request_id = $3`,
		c.AccountID, c.Key, c.RequestID)
	if err != nil {
		return p.s.fail("dropping the idempotency claim of request "+c.RequestID, err)
	}
	return nil
}

func (p *postgresIdempotency) Prune(ctx context.Context) (int, error) {
	tag, err := p.s.pool.Exec(ctx, `DELETE FROM ledger_idempotency WHERE created_at < $1`, p.opts.Now().Add(-p.opts.TTL).UTC())
	if err != nil {
		return 0, p.s.fail("pruning idempotency keys", err)
	}
	return int(tag.RowsAffected()), nil
}
