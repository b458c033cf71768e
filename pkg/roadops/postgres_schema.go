package roadops

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// pgMigrations are the schema versions of the operations' own tables:
// pgMigrations[i] takes it from version i to i+1. Never edit a released
// step; append one.
//
// Version 1:
//   - road_operations: every operation, its current body as JSON (the
//     Operation's own encoding) and its state, in order of created_seq.
//   - road_operation_changes: every change; seq (a sequence) orders them
//     and its largest committed value is Store.Version.
//   - road_operation_resolutions: the latest report per operation and
//     data version; shape (version 2) the way's shape where it resolved
//     by way id, as JSON [[lon, lat], ...].
var pgMigrations = []string{`
CREATE TABLE road_operations (
	id          text PRIMARY KEY,
	created_seq bigint NOT NULL,
	state       text NOT NULL CHECK (state IN ('draft', 'reviewed', 'withdrawn')),
	body        jsonb NOT NULL
);
CREATE INDEX road_operations_created ON road_operations (created_seq);
CREATE TABLE road_operation_changes (
	seq          bigserial PRIMARY KEY,
	at           timestamptz NOT NULL,
	who          text NOT NULL,
	action       text NOT NULL CHECK (action IN ('add', 'review', 'withdraw')),
	operation_id text NOT NULL,
	body         jsonb NOT NULL
);
CREATE INDEX road_operation_changes_operation ON road_operation_changes (operation_id, seq);
CREATE TABLE road_operation_resolutions (
	operation_id text NOT NULL,
	data_version text NOT NULL,
	resolved     boolean NOT NULL,
	segments     integer NOT NULL,
	detail       text NOT NULL,
	at           timestamptz NOT NULL,
	PRIMARY KEY (operation_id, data_version)
);
`, `
ALTER TABLE road_operation_resolutions ADD COLUMN shape jsonb;
`}

// migrate checks that the URL selects a schema and brings the tables to
// the latest version, under the writers' lock so that replicas starting
// together do it once.
func (s *pgStore) migrate(ctx context.Context) error {
	var schema *string
	var searchPath string
	if err := s.pool.QueryRow(ctx, `SELECT current_schema(), current_setting('search_path')`).Scan(&schema, &searchPath); err != nil {
		return s.fail("looking for the road operations' schema", err)
	}
	if schema == nil {
		return fmt.Errorf("road operations: no schema of the search_path %q exists in %s: create it first or correct the URL", searchPath, s.name)
	}
	err := s.writeTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS road_operations_schema (
			version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return err
		}
		var have int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM road_operations_schema`).Scan(&have); err != nil {
			return err
		}
		if have > len(pgMigrations) {
			return fmt.Errorf("the road operations' tables have version %d, this binary knows %d: upgrade mapd", have, len(pgMigrations))
		}
		for v := have; v < len(pgMigrations); v++ {
			if _, err := tx.Exec(ctx, pgMigrations[v]); err != nil {
				return fmt.Errorf("applying version %d: %w", v+1, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO road_operations_schema (version) VALUES ($1)`, v+1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return s.fail("migrating the road operations' tables", err)
	}
	return nil
}
