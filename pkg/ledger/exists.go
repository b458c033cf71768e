package ledger

import "errors"

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
