// Package open opens a ledger by its location, choosing the store from the
// location's shape: a "postgres://" or "postgresql://" URL is the
// PostgreSQL store (package postgres), anything else the path of the
// embedded bbolt file (package embedded).
//
// # Why a package of its own
//
// The contract (package ledger) cannot choose a store: both stores import
// it, so it importing them would be a cycle. database/sql solves this with
// drivers that register themselves from init, which is global mutable state
// and makes which stores exist depend on which packages some binary
// happened to import. This package is the one place that knows both
// stores, and the only one that imports both: a caller that wants a single
// store imports that store's package directly; a caller that takes a
// location from its operator (mapd's --ledger) imports this one.
package open

import (
	"context"
	"fmt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/embedded"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
	"github.com/mapsco/maps/pkg/ledger/postgres"
)

// Open opens the ledger named by dsn with default Options: a
// "postgres://" or "postgresql://" URL selects the PostgreSQL store, anything
// else is the path of the embedded bbolt file (created if missing unless
// Options.MustExist). The schema is migrated to the latest version; a
// PostgreSQL URL must select an existing schema (search_path), or Open fails
// with ledger.ErrMissingSchema.
func Open(ctx context.Context, dsn string) (ledger.Store, error) {
	return OpenWith(ctx, dsn, ledger.Options{})
}

// OpenWith is Open with explicit Options.
func OpenWith(ctx context.Context, dsn string, opts ledger.Options) (ledger.Store, error) {
	if dsn == "" {
		return nil, fmt.Errorf("%w: empty ledger location", ledger.ErrInvalidArgument)
	}
	if shared.IsPostgres(dsn) {
		return postgres.Open(ctx, dsn, opts)
	}
	return embedded.Open(ctx, dsn, opts)
}

// Embedded reports whether dsn names the embedded file store, whose
// commits block a thread in fdatasync (PostgreSQL's go through the network
// poller instead).
func Embedded(dsn string) bool { return dsn != "" && !shared.IsPostgres(dsn) }
