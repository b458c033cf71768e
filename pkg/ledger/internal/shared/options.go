package shared

import (
	"log/slog"
	"strings"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// Defaults fills in the zero fields of o that both stores read (the
// embedded store sizes its journal itself).
func Defaults(o ledger.Options) ledger.Options {
	if o.AuthCacheTTL == 0 {
		o.AuthCacheTTL = time.Second
	}
	if o.HoldTTL <= 0 {
		o.HoldTTL = 10 * time.Minute
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = time.Second
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 1024
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// IsPostgres reports whether dsn is a PostgreSQL URL ("postgres://" or
// "postgresql://"), which names the PostgreSQL store; anything else is the
// path of an embedded ledger file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}
