package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// postgresStore is the shared ledger for several replicas. Every operation
// is one statement (or one short transaction) against the pool; holds are
// rows in ledger_holds so that all replicas see them.
type postgresStore struct {
	pool *pgxpool.Pool
	name string // host/database, for errors; never the password
	opts ledger.Options
	auth *shared.AuthCache

	// voids are the commits and releases to settle once the server
	// answers again (void.go).
	voids *voider
	// clockOffset is the server's clock minus the local one, in
	// nanoseconds (serverNow).
	clockOffset atomic.Int64
	// gate refuses Reserve and Commit once Close began (package shared).
	gate shared.CloseGate

	stopSweep chan struct{}
	swept     sync.WaitGroup
	closeOnce sync.Once
}

// Pool defaults applied when the DSN does not set them: fail fast when the
// server is down, and enough connections for PostgreSQL to group the WAL
// flushes of concurrent commits.
const (
	pgConnectTimeout = 2 * time.Second
	pgMaxConns       = 16
)

// pgServerTimeouts are set on every connection unless the DSN sets them:
// the server itself ends a statement, or a transaction left idle, that
// mapd gave up on long ago (mapd waits pgCallTimeout), so that neither
// holds row locks (an account's, a hold's) after a client vanished. Verify
// and Migrate lift the statement timeout for their own transaction.
var pgServerTimeouts = map[string]string{
	"statement_timeout":                   "5s",
	"idle_in_transaction_session_timeout": "5s",
}

// pgCallTimeout bounds each Meter call's round trips, so that a server
// that stopped answering costs a request 503 within seconds (the caller's
// context may bound it more tightly). The server's own context would do,
// but a timer per call costs every request CPU; only the PostgreSQL store
// needs one.
const pgCallTimeout = 2 * time.Second

// Open opens the PostgreSQL ledger at the URL dsn ("postgres://" or
// "postgresql://") and migrates its schema to the latest version. The URL
// must select an existing schema (search_path), or Open fails with
// ledger.ErrMissingSchema; with opts.MustExist, a schema without the
// ledger's tables fails with ledger.ErrNoLedger.
func Open(ctx context.Context, dsn string, opts ledger.Options) (ledger.Store, error) {
	if dsn == "" {
		return nil, fmt.Errorf("%w: empty ledger location", ledger.ErrInvalidArgument)
	}
	s, err := openPostgres(ctx, dsn, shared.Defaults(opts))
	if err != nil {
		return nil, err
	}
	return s, nil
}

func openPostgres(ctx context.Context, dsn string, opts ledger.Options) (*postgresStore, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// Not %w: the parse error quotes the DSN, password and all, and
		// wrapping it would hand it to anyone who prints or unwraps the
		// error; only the redacted description goes on.
		return nil, fmt.Errorf("%w: parsing the PostgreSQL DSN: %v", ledger.ErrInvalidArgument, redactDSNError(err))
	}
	name := cfg.ConnConfig.Host + "/" + cfg.ConnConfig.Database
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = pgConnectTimeout
	}
	if u, err := url.Parse(dsn); err == nil && !u.Query().Has("pool_max_conns") {
		cfg.MaxConns = pgMaxConns
	}
	for k, v := range pgServerTimeouts {
		if _, set := cfg.ConnConfig.RuntimeParams[k]; !set {
			cfg.ConnConfig.RuntimeParams[k] = v
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: connecting to ledger %s: %w", ledger.ErrUnavailable, name, err)
	}
	s := &postgresStore{pool: pool, name: name, opts: opts, auth: shared.NewAuthCache(opts.AuthCacheTTL, opts.Now),
		stopSweep: make(chan struct{})}
	if err := s.checkSchema(ctx, opts.MustExist); err != nil {
		pool.Close()
		return nil, err
	}
	if err := s.Migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := s.sweepExpiredHolds(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := s.measureClock(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	s.voids = newVoider(s)
	s.swept.Add(1)
	go s.sweepLoop()
	return s, nil
}

// redactDSNError describes a DSN parse error without quoting the DSN, which
// may hold a password (pgx's own redaction is best effort).
func redactDSNError(err error) string {
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		return "cannot parse the connection string"
	}
	return "invalid connection string"
}

// Close stops the hold sweeper, makes a last attempt (of a few seconds) at
// the voids still queued, and closes the pool. Holds of this process stay
// in the table until they expire.
func (s *postgresStore) Close() error {
	s.closeOnce.Do(func() {
		s.gate.Close()
		close(s.stopSweep)
		s.swept.Wait()
		s.voids.close(pgCallTimeout)
		s.pool.Close()
	})
	return nil
}

// sweepLoop returns expired holds to their accounts every quarter HoldTTL
// (at most every minute), on every replica.
func (s *postgresStore) sweepLoop() {
	defer s.swept.Done()
	every := min(s.opts.HoldTTL/4, time.Minute)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-s.stopSweep:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), every)
			_ = s.sweepExpiredHolds(ctx) // a failed sweep is retried next tick
			_ = s.measureClock(ctx)      // the clocks drift apart slowly
			cancel()
		}
	}
}

// fail turns a pgx error into a ledger error: the package's own sentinels
// pass through, a duplicate request id becomes ErrDuplicateRequest, and
// everything else means the backend could not answer (ErrUnavailable).
func (s *postgresStore) fail(what string, err error) error {
	var pgErr *pgconn.PgError
	switch {
	case shared.IsLedgerError(err):
		return fmt.Errorf("%s: %w", what, err)
	case errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "ledger_usage_pkey":
		return fmt.Errorf("%s: %w", what, ledger.ErrDuplicateRequest)
	default:
		return fmt.Errorf("%w: %s in %s: %w", ledger.ErrUnavailable, what, s.name, err)
	}
}

// inTx runs fn in a transaction, committing if it returns nil.
func (s *postgresStore) inTx(ctx context.Context, opts pgx.TxOptions, fn func(pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, opts, fn)
}
