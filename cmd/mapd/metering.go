package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/admin"
	"github.com/mapsco/maps/pkg/api"
	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/open"
	"github.com/mapsco/maps/pkg/ratelimit"
)

// meteringOptions are serve's ledger and rate-limit flags.
type meteringOptions struct {
	ledger      string // bbolt file or postgres:// URL
	sync        string // embedded ledger: "background" or "commit"
	rateLimit   int    // default requests/second per key
	limiter     string // "memory" or redis://
	adminSocket string // "" = FILE-admin.sock for an embedded ledger, none for PostgreSQL; "none" = none
	// usageRetention: usage records older than this are pruned hourly
	// (embedded ledger); 0 keeps them all.
	usageRetention time.Duration
}

func addMeteringFlags(cmd *cobra.Command, o *meteringOptions) {
	f := cmd.Flags()
	f.StringVar(&o.ledger, "ledger", defaultLedger, "ledger: an embedded file (which must exist: see mapd ledger init), or postgres://... shared by replicas")
	f.StringVar(&o.adminSocket, "admin-socket", "", "unix socket (mode 0600) on which the admin commands reach this mapd's ledger; default FILE-admin.sock beside an embedded ledger, none for PostgreSQL (whose admin commands need none); none: no socket")
	f.StringVar(&o.sync, "ledger-sync", "background", "embedded ledger: when a 200 may leave: background (once its charge is written to the journal, which survives a crash or kill -9 of mapd; the journal is fdatasynced every 5 ms while written to, so a power loss may lose the last 5 ms or so of charges) or commit (once its charge is fdatasynced: survives a power loss, and every answer waits for a disk flush)")
	f.IntVar(&o.rateLimit, "rate-limit", api.DefaultRate, "requests per second per key, for keys without their own limit")
	f.StringVar(&o.limiter, "rate-limit-store", "memory", "where rate limits are counted: memory (this process) or redis://... (shared by replicas)")
	// The old name, one hyphen from --rate-limit: still accepted, with a warning.
	f.StringVar(&o.limiter, "ratelimit", "memory", "")
	_ = f.MarkDeprecated("ratelimit", "use --rate-limit-store (--rate-limit is the requests per second)")
	f.DurationVar(&o.usageRetention, "usage-retention", 0, "embedded ledger: delete usage records older than this, hourly (e.g. 9600h, 400 days); totals, balances and the per-day sums of usage export stay (0: keep every record)")
}

// serveLockTimeout is how long serve waits for an embedded ledger file that
// an admin command holds (opened directly, while no mapd served it).
const serveLockTimeout = 10 * time.Second

// openMetering opens the ledger, its admin socket, its Idempotency-Key store
// and the limiter. ready reports whether the ledger answers (for
// /v1/health/ready); closeAll releases them, the admin socket first.
// computeLimit is serve's --compute-timeout.
func openMetering(ctx context.Context, log *slog.Logger, o meteringOptions, computeLimit time.Duration) (m *api.Metering, ready func(context.Context) error, closeAll func(), err error) {
	if o.rateLimit < 1 {
		return nil, nil, nil, fmt.Errorf("--rate-limit %d: want at least 1 request per second", o.rateLimit)
	}
	mode, err := ledger.ParseSync(o.sync)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--ledger-sync: %w", err)
	}
	switch {
	case o.usageRetention < 0:
		return nil, nil, nil, fmt.Errorf("--usage-retention %v: want 0 (keep every record) or more", o.usageRetention)
	case o.usageRetention > 0 && !open.Embedded(o.ledger):
		return nil, nil, nil, fmt.Errorf("--usage-retention: the PostgreSQL ledger has no retention yet (its totals and exports are computed from the usage records); use it with an embedded ledger")
	case o.usageRetention > 0 && o.usageRetention < 48*time.Hour:
		return nil, nil, nil, fmt.Errorf("--usage-retention %v: keep at least 48h, so that support can look up yesterday's requests", o.usageRetention)
	}
	store, err := open.OpenWith(ctx, o.ledger, ledger.Options{Sync: mode, MustExist: true, LockTimeout: serveLockTimeout, Logger: log})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open ledger: %w", explainOpen(o.ledger, err))
	}
	closeAdmin, err := serveAdmin(log, o, store)
	if err != nil {
		store.Close()
		return nil, nil, nil, err
	}
	if open.Embedded(o.ledger) && mode == ledger.SyncCommit {
		addSyncProcs()
	}
	// A replica may take over a key once the lease is over, giving back
	// what its request still holds: the lease must outlast the request's
	// life (its deadline) and the commit after it.
	idem, err := ledger.OpenIdempotency(ctx, store, ledger.IdempotencyOptions{Lease: computeLimit + idempotencyLeaseMargin})
	if err != nil {
		closeAdmin()
		store.Close()
		return nil, nil, nil, fmt.Errorf("open ledger: %w", err)
	}
	lim, err := ratelimit.Open(ctx, o.limiter)
	if err != nil {
		closeAdmin()
		store.Close()
		return nil, nil, nil, fmt.Errorf("open rate limiter: %w", err)
	}
	stopPruning := pruneLedger(log, idem, store, o.usageRetention)
	ready = func(ctx context.Context) error {
		// The embedded ledger knows when it cannot write (a full disk).
		if h, ok := store.(interface{ Health() error }); ok {
			if err := h.Health(); err != nil {
				return fmt.Errorf("ledger: %w", err)
			}
		}
		// A lookup of an id that cannot exist costs one index read.
		_, err := store.LookupUsage(ctx, "req_readiness_probe")
		if err == nil || errors.Is(err, ledger.ErrUnknownRequest) {
			return nil
		}
		return fmt.Errorf("ledger: %w", err)
	}
	closeAll = func() {
		closeAdmin()
		stopPruning()
		lim.Close()
		store.Close()
	}
	return &api.Metering{Meter: store, Limiter: lim, DefaultRate: o.rateLimit, Idempotency: idem}, ready, closeAll, nil
}

// pruneEvery is how often the answers of Idempotency-Keys older than 24 h
// are deleted.
const pruneEvery = time.Hour

// pruneLedger deletes expired Idempotency-Key answers, and with a
// retention the usage records older than it, every pruneEvery until stop
// is called.
func pruneLedger(log *slog.Logger, idem ledger.Idempotency, store ledger.Store, retention time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(pruneEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				n, err := idem.Prune(ctx)
				cancel()
				if err != nil {
					log.Warn("pruning idempotency keys failed; retrying in an hour", "err", err.Error())
				} else if n > 0 {
					log.Info("idempotency keys pruned", "deleted", n)
				}
				if p, ok := store.(ledger.UsagePruner); ok && retention > 0 {
					pruneUsage(log, p, retention)
				}
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// serveAdmin answers the admin commands on the ledger's admin socket (see
// pkg/admin) until the returned func is called.
func serveAdmin(log *slog.Logger, o meteringOptions, store ledger.Admin) (closeAdmin func(), err error) {
	path := o.adminSocket
	switch {
	case path == "none", path == "" && !open.Embedded(o.ledger):
		return func() {}, nil
	case path == "":
		path = admin.SocketPath(o.ledger)
	}
	ln, err := admin.Listen(path)
	if err != nil {
		return nil, fmt.Errorf("--admin-socket: %w", err)
	}
	srv := admin.NewServer(store, log)
	go func() {
		if err := srv.Serve(ln); err != nil {
			log.Error("admin socket stopped", "err", err.Error())
		}
	}()
	log.Info("admin socket", "path", path)
	return func() { srv.Close() }, nil
}

// syncProcs is how many Ps mapd adds to GOMAXPROCS over the cores when
// requests wait for the embedded ledger's fdatasyncs (--ledger-sync
// commit). A request leads its group's sync itself (0.2–1 ms here), and a
// goroutine blocked in a system call keeps its P until the runtime's
// monitor takes it back, so with one P per core, metered directions at 64
// clients left a third of the cores idle: 3,215–3,320 requests/s against
// 4,518–5,396 with a journal that does not sync. Two extra Ps gave
// 3,622–3,929 and four 3,787–4,232 (docs/benchmarks-history.md, "The journal's syncs and
// GOMAXPROCS"). With --ledger-sync background only the ledger's syncer
// blocks, every few milliseconds at most, and the extra Ps cost more than
// they give: 64 clients, alternatives 0, 179–195 µs of CPU a request
// without them against 203–250 with them (docs/benchmarks-history.md, "When a charge is
// durable").
const syncProcs = 4

// addSyncProcs raises GOMAXPROCS by syncProcs unless the operator set it.
func addSyncProcs() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + syncProcs)
	}
}

// idempotencyLeaseMargin is what the Idempotency-Key lease adds to the
// compute timeout: the answer's storing and the commit (PostgreSQL: 2 s
// each at most) after the deadline's check.
const idempotencyLeaseMargin = 10 * time.Second

// pruneUsage deletes the usage records older than retention.
func pruneUsage(log *slog.Logger, p ledger.UsagePruner, retention time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	n, err := p.PruneUsage(ctx, time.Now().Add(-retention))
	switch {
	case err != nil:
		log.Warn("pruning usage records failed; retrying in an hour", "err", err.Error())
	case n > 0:
		log.Info("usage records pruned", "deleted", n, "retention", retention.String())
	}
}
