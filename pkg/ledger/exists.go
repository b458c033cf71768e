package ledger

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Errors of Open about where the ledger is.
var (
	// ErrNoLedger means Options.MustExist was set and there is no ledger
	// at the given location: no such embedded file, or a PostgreSQL schema
	// without the ledger's tables.
	ErrNoLedger = errors.New("ledger: no ledger there")
	// ErrMissingSchema means the PostgreSQL URL's search_path names no
	// schema that exists, so there is nowhere to find or create the
	// ledger's tables.
	ErrMissingSchema = errors.New("ledger: the PostgreSQL schema does not exist")
)

// checkBoltExists refuses an embedded ledger file that does not exist.
func checkBoltExists(path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: ledger file %s does not exist", ErrNoLedger, path)
	}
	return nil
}

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
			ErrMissingSchema, searchPath, s.name)
	case mustExist && !exists:
		return fmt.Errorf("%w: schema %s in %s holds no ledger tables", ErrNoLedger, *schema, s.name)
	}
	return nil
}
