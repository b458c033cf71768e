package roadops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgStore keeps operations in tables of their own in the ledger's
// PostgreSQL database. Writers take a transaction-scoped advisory lock
// before drawing their change's sequence number, so changes commit in
// the order of their numbers and Version (the largest committed number)
// never passes over a change still to commit.
type pgStore struct {
	pool *pgxpool.Pool
	name string // host/database, for errors; never the password
}

const (
	pgConnectTimeout = 2 * time.Second
	pgMaxConns       = 4
	// pgWriteLock serialises writers ("roadops" in ASCII); migrations
	// take it too.
	pgWriteLock = 0x726f61646f7073
)

func openPostgres(ctx context.Context, dsn string) (*pgStore, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// Not %w: the parse error may quote the DSN, password and all.
		return nil, errors.New("road operations: cannot parse the PostgreSQL URL")
	}
	name := cfg.ConnConfig.Host + "/" + cfg.ConnConfig.Database
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = pgConnectTimeout
	}
	cfg.MaxConns = pgMaxConns
	if _, set := cfg.ConnConfig.RuntimeParams["statement_timeout"]; !set {
		cfg.ConnConfig.RuntimeParams["statement_timeout"] = "10s"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: connecting to %s: %w", ErrUnavailable, name, err)
	}
	s := &pgStore{pool: pool, name: name}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

func (s *pgStore) Close() error {
	s.pool.Close()
	return nil
}

func (s *pgStore) fail(what string, err error) error {
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrWithdrawn) || errors.Is(err, ErrInvalid) {
		return err
	}
	return fmt.Errorf("%w: %s in %s: %w", ErrUnavailable, what, s.name, err)
}

// writeTx runs fn in a transaction holding the writers' lock.
func (s *pgStore) writeTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, pgWriteLock); err != nil {
			return err
		}
		return fn(tx)
	})
}

// insertChange records a change and returns its sequence number.
func insertChange(ctx context.Context, tx pgx.Tx, at time.Time, who, action string, op Operation) (int64, error) {
	body, err := json.Marshal(op)
	if err != nil {
		return 0, err
	}
	var seq int64
	err = tx.QueryRow(ctx, `INSERT INTO road_operation_changes (at, who, action, operation_id, body)
		VALUES ($1, $2, $3, $4, $5) RETURNING seq`, at, who, action, op.ID, body).Scan(&seq)
	return seq, err
}

func (s *pgStore) Add(ctx context.Context, op Operation, who string) (Operation, error) {
	return addOne(ctx, s.AddAll, op, who)
}

func (s *pgStore) AddAll(ctx context.Context, ops []Operation, who string) ([]Operation, error) {
	drafts, t, err := newDrafts(ops)
	if err != nil {
		return nil, err
	}
	// One statement per operation (its change, then the operation with
	// the change's number), all sent in one batch: an import of 10,000
	// operations is one round trip, not 20,000.
	batch := &pgx.Batch{}
	for _, d := range drafts {
		body, err := json.Marshal(d)
		if err != nil {
			return nil, err
		}
		batch.Queue(`WITH c AS (
				INSERT INTO road_operation_changes (at, who, action, operation_id, body)
				VALUES ($1, $2, 'add', $3, $4) RETURNING seq)
			INSERT INTO road_operations (id, created_seq, state, body) SELECT $3, seq, 'draft', $4 FROM c`,
			t, who, d.ID, body)
	}
	err = s.writeTx(ctx, func(tx pgx.Tx) error { return tx.SendBatch(ctx, batch).Close() })
	if err != nil {
		return nil, s.fail("adding road operations", err)
	}
	return drafts, nil
}

func (s *pgStore) Review(ctx context.Context, id, who string) (Operation, error) {
	return s.transition(ctx, id, who, ActionReview)
}

func (s *pgStore) Withdraw(ctx context.Context, id, who string) (Operation, error) {
	return s.transition(ctx, id, who, ActionWithdraw)
}

func (s *pgStore) transition(ctx context.Context, id, who, action string) (Operation, error) {
	var out Operation
	err := s.writeTx(ctx, func(tx pgx.Tx) error {
		op, err := getOp(ctx, tx, id)
		if err != nil {
			return err
		}
		t := now()
		next, changed, err := transition(op, action, t)
		out = next
		if err != nil || !changed {
			return err
		}
		if _, err := insertChange(ctx, tx, t, who, action, next); err != nil {
			return err
		}
		body, _ := json.Marshal(next)
		_, err = tx.Exec(ctx, `UPDATE road_operations SET state = $2, body = $3 WHERE id = $1`, id, next.State, body)
		return err
	})
	if err != nil {
		return Operation{}, s.fail(action+" of road operation "+id, err)
	}
	return out, nil
}

// querier is what Get needs of a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func getOp(ctx context.Context, q querier, id string) (Operation, error) {
	var body []byte
	err := q.QueryRow(ctx, `SELECT body FROM road_operations WHERE id = $1`, id).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return Operation{}, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	if err != nil {
		return Operation{}, err
	}
	var op Operation
	if err := json.Unmarshal(body, &op); err != nil {
		return Operation{}, fmt.Errorf("decoding road operation %s: %w", id, err)
	}
	return op, nil
}

func (s *pgStore) Get(ctx context.Context, id string) (Operation, error) {
	op, err := getOp(ctx, s.pool, id)
	if err != nil {
		return Operation{}, s.fail("reading road operation "+id, err)
	}
	return op, nil
}

func (s *pgStore) List(ctx context.Context) ([]Operation, error) {
	rows, err := s.pool.Query(ctx, `SELECT body FROM road_operations ORDER BY created_seq`)
	if err != nil {
		return nil, s.fail("listing road operations", err)
	}
	ops, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Operation, error) {
		var body []byte
		var op Operation
		if err := row.Scan(&body); err != nil {
			return op, err
		}
		return op, json.Unmarshal(body, &op)
	})
	if err != nil {
		return nil, s.fail("listing road operations", err)
	}
	return ops, nil
}

func (s *pgStore) History(ctx context.Context, id string) ([]Change, error) {
	if id != "" {
		if _, err := s.Get(ctx, id); err != nil {
			return nil, err
		}
	}
	rows, err := s.pool.Query(ctx, `SELECT seq, at, who, action, body FROM road_operation_changes
		WHERE $1 = '' OR operation_id = $1 ORDER BY seq`, id)
	if err != nil {
		return nil, s.fail("reading road operations' history", err)
	}
	changes, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Change, error) {
		var c Change
		var body []byte
		if err := row.Scan(&c.Seq, &c.At, &c.Who, &c.Action, &body); err != nil {
			return c, err
		}
		c.At = c.At.UTC()
		return c, json.Unmarshal(body, &c.Operation)
	})
	if err != nil {
		return nil, s.fail("reading road operations' history", err)
	}
	return changes, nil
}

// Version is the number of the last committed change (an index lookup).
func (s *pgStore) Version(ctx context.Context) (int64, error) {
	var v int64
	if err := s.pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM road_operation_changes`).Scan(&v); err != nil {
		return 0, s.fail("reading the road operations' version", err)
	}
	return v, nil
}

func (s *pgStore) Report(ctx context.Context, dataVersion string, results []Resolution) error {
	if len(results) == 0 {
		return nil
	}
	batch := &pgx.Batch{}
	for _, r := range stampResolutions(dataVersion, results) {
		batch.Queue(`INSERT INTO road_operation_resolutions (operation_id, data_version, resolved, segments, detail, at, shape)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (operation_id, data_version) DO UPDATE
			SET resolved = EXCLUDED.resolved, segments = EXCLUDED.segments, detail = EXCLUDED.detail, at = EXCLUDED.at, shape = EXCLUDED.shape
			WHERE (road_operation_resolutions.resolved, road_operation_resolutions.segments, road_operation_resolutions.detail, road_operation_resolutions.shape)
				IS DISTINCT FROM (EXCLUDED.resolved, EXCLUDED.segments, EXCLUDED.detail, EXCLUDED.shape)`,
			r.ID, r.DataVersion, r.Resolved, r.Segments, r.Detail, r.At, shapeJSON(r.Shape))
	}
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil {
		return s.fail("recording resolutions", err)
	}
	return nil
}

func (s *pgStore) Resolutions(ctx context.Context) ([]Resolution, error) {
	rows, err := s.pool.Query(ctx, `SELECT operation_id, data_version, resolved, segments, detail, at, shape
		FROM road_operation_resolutions ORDER BY operation_id, data_version`)
	if err != nil {
		return nil, s.fail("reading resolutions", err)
	}
	rs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Resolution, error) {
		var r Resolution
		var shape []byte
		if err := row.Scan(&r.ID, &r.DataVersion, &r.Resolved, &r.Segments, &r.Detail, &r.At, &shape); err != nil {
			return r, err
		}
		r.At = r.At.UTC()
		if shape != nil {
			if err := json.Unmarshal(shape, &r.Shape); err != nil {
				return r, fmt.Errorf("the shape of %s on %s: %w", r.ID, r.DataVersion, err)
			}
		}
		return r, nil
	})
	if err != nil {
		return nil, s.fail("reading resolutions", err)
	}
	sortResolutions(rs) // the same order as the embedded store, whatever the collation
	return rs, nil
}

// shapeJSON is a resolution's shape as the jsonb column holds it: NULL
// when it has none.
func shapeJSON(shape [][2]float64) []byte {
	if len(shape) == 0 {
		return nil
	}
	b, _ := json.Marshal(shape) // points are finite: they come from a release
	return b
}
