package postgres

import (
	"context"
	"fmt"

	"github.com/mapsco/maps/pkg/ledger"
)

// checkSchema refuses a search_path that selects no existing schema (where
// creating the tables would fail with PostgreSQL's "no schema has been
// selected to create in"), and, if mustExist, a schema without the ledger.
func (s *postgresStore) checkSchema(ctx context.Context, mustExist bool) error {
	var schema *string
	var exists bool
	var searchPath string
	err := s.pool.QueryRow(ctx, `SELECT current_schema(), to_regclass('ledger_schema') IS NOT NULL, current_setting('search_path')`).
		Scan(&schema, &exists, &searchPath)
	switch {
	case err != nil:
		return s.fail("looking for the ledger's schema", err)
	case schema == nil:
		return fmt.Errorf("%w: no schema of the search_path %q exists in %s: create it first (CREATE SCHEMA ...) or correct the URL's search_path",
			ledger.ErrMissingSchema, searchPath, s.name)
	case mustExist && !exists:
		return fmt.Errorf("%w: schema %s in %s holds no ledger tables", ledger.ErrNoLedger, *schema, s.name)
	}
	return nil
}
