package ledger

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// pgMigrations are the schema versions, in order: pgMigrations[i] takes the
// schema from version i to i+1. Never edit a released step; append one.
//
// Version 1:
//   - ledger_accounts: balance is what the account owns (grants - charges);
//     held is what outstanding holds take from it; spend_day/spend_month
//     (yyyymmdd, yyyymm, UTC) date the day_spent/month_spent counters;
//     charged and requests are all-time totals.
//   - ledger_keys: only the SHA-256 of each key.
//   - ledger_grants, ledger_usage: the books that Verify sums.
//   - ledger_holds: outstanding reservations, swept after expires_at.
var pgMigrations = []string{`
CREATE TABLE ledger_accounts (
	id          text PRIMARY KEY,
	status      text NOT NULL CHECK (status IN ('active', 'suspended')),
	balance     bigint NOT NULL CHECK (balance >= 0),
	held        bigint NOT NULL DEFAULT 0 CHECK (held >= 0),
	daily_cap   bigint NOT NULL CHECK (daily_cap >= 0),
	monthly_cap bigint NOT NULL CHECK (monthly_cap >= 0),
	spend_day   integer NOT NULL DEFAULT 0,
	day_spent   bigint NOT NULL DEFAULT 0,
	spend_month integer NOT NULL DEFAULT 0,
	month_spent bigint NOT NULL DEFAULT 0,
	charged     bigint NOT NULL DEFAULT 0,
	requests    bigint NOT NULL DEFAULT 0,
	created_at  timestamptz NOT NULL
);
CREATE TABLE ledger_keys (
	id         text PRIMARY KEY,
	account_id text NOT NULL REFERENCES ledger_accounts (id),
	hash       bytea NOT NULL UNIQUE,
	kind       text NOT NULL CHECK (kind IN ('secret', 'public')),
	rate_limit integer NOT NULL CHECK (rate_limit >= 0),
	created_at timestamptz NOT NULL,
	revoked_at timestamptz
);
CREATE INDEX ledger_keys_account ON ledger_keys (account_id);
CREATE TABLE ledger_grants (
	id         bigserial PRIMARY KEY,
	account_id text NOT NULL REFERENCES ledger_accounts (id),
	credits    bigint NOT NULL CHECK (credits > 0),
	created_at timestamptz NOT NULL
);
CREATE INDEX ledger_grants_account ON ledger_grants (account_id);
CREATE TABLE ledger_holds (
	id         bigserial PRIMARY KEY,
	account_id text NOT NULL,
	key_id     text NOT NULL,
	operation  text NOT NULL,
	request_id text NOT NULL,
	credits    bigint NOT NULL CHECK (credits > 0),
	created_at timestamptz NOT NULL,
	expires_at timestamptz NOT NULL
);
CREATE INDEX ledger_holds_expiry ON ledger_holds (expires_at);
CREATE TABLE ledger_usage (
	request_id text PRIMARY KEY,
	account_id text NOT NULL,
	key_id     text NOT NULL,
	operation  text NOT NULL,
	credits    bigint NOT NULL CHECK (credits > 0),
	created_at timestamptz NOT NULL
);
CREATE INDEX ledger_usage_account ON ledger_usage (account_id, operation);
`}

// pgMigrationLock is the advisory lock key that serialises migrations of
// concurrent replicas ("ledger" in ASCII).
const pgMigrationLock = 0x6c6564676572

// Migrate applies the missing schema versions in one transaction under an
// advisory lock, recording each in ledger_schema. Running it again, or from
// several replicas at once, is harmless.
func (s *postgresStore) Migrate(ctx context.Context) error {
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, pgMigrationLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS ledger_schema (
			version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return err
		}
		var have int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM ledger_schema`).Scan(&have); err != nil {
			return err
		}
		if have > len(pgMigrations) {
			return fmt.Errorf("%w: database has version %d, binary knows %d", ErrSchemaTooNew, have, len(pgMigrations))
		}
		for v := have; v < len(pgMigrations); v++ {
			if _, err := tx.Exec(ctx, pgMigrations[v]); err != nil {
				return fmt.Errorf("applying version %d: %w", v+1, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO ledger_schema (version) VALUES ($1)`, v+1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return s.fail("migrating the ledger schema", err)
	}
	return nil
}
