package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/mapsco/maps/pkg/ledger"
)

// pgMigrations are the schema versions, in order: pgMigrations[i] takes the
// schema from version i to i+1. Never edit a released step; append one.
//
// Version 1. The design keeps Commit off the account row, so that charges
// of one busy account do not queue behind each other's WAL flush:
//   - ledger_accounts.balance is what the account may still spend: grants -
//     charges - outstanding holds. Reserve takes the credits from it (and
//     adds them to day_spent/month_spent, dated by spend_day/spend_month,
//     yyyymmdd and yyyymm UTC); Release and the expiry sweep give them back.
//   - ledger_holds: outstanding reservations, with the day and month their
//     credits were counted in; swept after expires_at.
//   - ledger_usage: one row per charge. Commit only moves a hold here.
//   - ledger_keys: only the SHA-256 of each key. ledger_grants: credits in.
//   - ledger_reserve(): Reserve's check-and-hold, in the server so that it
//     takes one round trip and reports the exact figures it refused on.
//
// Version 2. A request answered anything but 200 must cost nothing, even
// when PostgreSQL stalls with a commit in its hands (void.go):
//   - ledger_commit(): Commit in the server. It charges the hold only if
//     the server runs it by the deadline mapd gives (in the server's clock)
//     and the hold has not expired; past either it gives the credits back
//     and records why in ledger_voids.
//   - ledger_void(): mapd's compensation for a commit it gave up on: it
//     releases the hold if the commit has not run, or refunds the charge
//     if it has, and records it in ledger_voids.
//   - ledger_usage.hold_id, spend_day, spend_month: which hold a charge
//     came from and the day and month its credits counted in, so that a
//     refund takes them off the right spend counters.
var pgMigrations = []string{`
CREATE TABLE ledger_accounts (
	id          text PRIMARY KEY,
	status      text NOT NULL CHECK (status IN ('active', 'suspended')),
	balance     bigint NOT NULL CHECK (balance >= 0),
	daily_cap   bigint NOT NULL CHECK (daily_cap >= 0),
	monthly_cap bigint NOT NULL CHECK (monthly_cap >= 0),
	spend_day   integer NOT NULL DEFAULT 0,
	day_spent   bigint NOT NULL DEFAULT 0,
	spend_month integer NOT NULL DEFAULT 0,
	month_spent bigint NOT NULL DEFAULT 0,
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
	spend_day   integer NOT NULL,
	spend_month integer NOT NULL,
	created_at timestamptz NOT NULL,
	expires_at timestamptz NOT NULL
);
CREATE INDEX ledger_holds_expiry ON ledger_holds (expires_at);
CREATE INDEX ledger_holds_account ON ledger_holds (account_id);
CREATE TABLE ledger_usage (
	request_id text PRIMARY KEY,
	account_id text NOT NULL,
	key_id     text NOT NULL,
	operation  text NOT NULL,
	credits    bigint NOT NULL CHECK (credits > 0),
	created_at timestamptz NOT NULL
);
CREATE INDEX ledger_usage_account ON ledger_usage (account_id, created_at);
CREATE FUNCTION ledger_reserve(
	p_account text, p_credits bigint, p_day integer, p_month integer,
	p_key text, p_operation text, p_request text, p_now timestamptz, p_expires timestamptz,
	OUT o_hold_id bigint, OUT o_status text, OUT o_balance bigint,
	OUT o_daily_cap bigint, OUT o_monthly_cap bigint, OUT o_day_spent bigint, OUT o_month_spent bigint)
LANGUAGE plpgsql AS $$
BEGIN
	-- Lock the account row: the checks below and the hold are one step.
	SELECT a.status, a.balance, a.daily_cap, a.monthly_cap,
	       CASE WHEN a.spend_day = p_day THEN a.day_spent ELSE 0 END,
	       CASE WHEN a.spend_month = p_month THEN a.month_spent ELSE 0 END
	  INTO o_status, o_balance, o_daily_cap, o_monthly_cap, o_day_spent, o_month_spent
	  FROM ledger_accounts a WHERE a.id = p_account FOR UPDATE;
	IF NOT FOUND OR o_status <> 'active' OR o_balance < p_credits
	   OR (o_daily_cap > 0 AND o_day_spent + p_credits > o_daily_cap)
	   OR (o_monthly_cap > 0 AND o_month_spent + p_credits > o_monthly_cap) THEN
		RETURN; -- refused: o_hold_id stays NULL, the figures say why
	END IF;
	-- A hold need not survive a server crash: the hold row and the taken
	-- credits vanish together, and Commit then finds no hold. So the hold
	-- does not wait for the WAL flush (Commit's flush covers it anyway).
	PERFORM set_config('synchronous_commit', 'off', true);
	UPDATE ledger_accounts SET balance = balance - p_credits,
		spend_day = p_day, day_spent = o_day_spent + p_credits,
		spend_month = p_month, month_spent = o_month_spent + p_credits
	WHERE id = p_account;
	INSERT INTO ledger_holds (account_id, key_id, operation, request_id, credits, spend_day, spend_month, created_at, expires_at)
	VALUES (p_account, p_key, p_operation, p_request, p_credits, p_day, p_month, p_now, p_expires)
	RETURNING id INTO o_hold_id;
END
$$;
`, `
ALTER TABLE ledger_usage ADD COLUMN hold_id bigint, ADD COLUMN spend_day integer, ADD COLUMN spend_month integer;
CREATE INDEX ledger_usage_hold ON ledger_usage (hold_id);
CREATE TABLE ledger_voids (
	hold_id    bigint PRIMARY KEY,
	request_id text NOT NULL,
	account_id text NOT NULL,
	credits    bigint NOT NULL CHECK (credits >= 0),
	outcome    text NOT NULL CHECK (outcome IN ('released', 'refunded', 'nothing')),
	reason     text NOT NULL,
	created_at timestamptz NOT NULL
);
CREATE INDEX ledger_voids_request ON ledger_voids (request_id);
CREATE FUNCTION ledger_give_back(p_account text, p_credits bigint, p_day integer, p_month integer)
RETURNS void LANGUAGE sql AS $$
	UPDATE ledger_accounts a SET balance = a.balance + p_credits,
		day_spent = CASE WHEN a.spend_day = p_day THEN a.day_spent - p_credits ELSE a.day_spent END,
		month_spent = CASE WHEN a.spend_month = p_month THEN a.month_spent - p_credits ELSE a.month_spent END
	WHERE a.id = p_account;
$$;
CREATE FUNCTION ledger_commit(p_hold bigint, p_account text, p_now timestamptz, p_deadline timestamptz,
	OUT o_outcome text, OUT o_credits bigint)
LANGUAGE plpgsql AS $$
DECLARE
	h ledger_holds%ROWTYPE;
BEGIN
	DELETE FROM ledger_holds WHERE id = p_hold AND account_id = p_account RETURNING * INTO h;
	IF NOT FOUND THEN
		o_outcome := 'gone'; -- committed, released, swept or voided already
		RETURN;
	END IF;
	o_credits := h.credits;
	IF clock_timestamp() > p_deadline OR h.expires_at <= p_now THEN
		-- mapd has given up on this commit (or the hold expired): the
		-- request is answered 503, so it must cost nothing.
		PERFORM ledger_give_back(h.account_id, h.credits, h.spend_day, h.spend_month);
		INSERT INTO ledger_voids VALUES (h.id, h.request_id, h.account_id, h.credits, 'released',
			'commit ran after its deadline', clock_timestamp()) ON CONFLICT (hold_id) DO NOTHING;
		o_outcome := 'late';
		RETURN;
	END IF;
	INSERT INTO ledger_usage (request_id, account_id, key_id, operation, credits, created_at, hold_id, spend_day, spend_month)
	VALUES (h.request_id, h.account_id, h.key_id, h.operation, h.credits, p_now, h.id, h.spend_day, h.spend_month);
	o_outcome := 'charged';
END
$$;
CREATE FUNCTION ledger_void(p_hold bigint, p_account text, p_request text, p_reason text, OUT o_outcome text, OUT o_credits bigint)
LANGUAGE plpgsql AS $$
DECLARE
	v_day integer;
	v_month integer;
BEGIN
	o_outcome := 'nothing';
	o_credits := 0;
	-- The hold is still there: the commit has not run, and now never will.
	DELETE FROM ledger_holds WHERE id = p_hold AND account_id = p_account
		RETURNING credits, spend_day, spend_month INTO o_credits, v_day, v_month;
	IF FOUND THEN
		o_outcome := 'released';
	ELSE
		-- The commit ran (each statement sees what committed before it
		-- started, so a commit that held the hold's row is seen): take
		-- its charge back.
		DELETE FROM ledger_usage WHERE hold_id = p_hold AND account_id = p_account
			RETURNING credits, spend_day, spend_month INTO o_credits, v_day, v_month;
		IF FOUND THEN
			o_outcome := 'refunded';
		ELSE
			o_credits := 0;
		END IF;
	END IF;
	IF o_outcome <> 'nothing' THEN
		PERFORM ledger_give_back(p_account, o_credits, v_day, v_month);
	END IF;
	INSERT INTO ledger_voids VALUES (p_hold, p_request, p_account, o_credits, o_outcome, p_reason, clock_timestamp())
		ON CONFLICT (hold_id) DO NOTHING;
END
$$;
`}

// pgNoStatementTimeout lifts pgServerTimeouts' statement timeout for the
// rest of a transaction whose statements may take long (Verify's sums
// over every usage record, a migration waiting for the lock).
const pgNoStatementTimeout = `SET LOCAL statement_timeout = 0`

// pgMigrationLock is the advisory lock key that serialises migrations of
// concurrent replicas ("ledger" in ASCII).
const pgMigrationLock = 0x6c6564676572

// Migrate applies the missing schema versions in one transaction under an
// advisory lock, recording each in ledger_schema. Running it again, or from
// several replicas at once, is harmless.
func (s *postgresStore) Migrate(ctx context.Context) error {
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, pgNoStatementTimeout); err != nil {
			return err
		}
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
			return fmt.Errorf("%w: database has version %d, binary knows %d", ledger.ErrSchemaTooNew, have, len(pgMigrations))
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
