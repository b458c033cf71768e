package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/api"
	"github.com/mapsco/maps/pkg/release"
	opsresolve "github.com/mapsco/maps/pkg/roadops/resolve"
	"github.com/mapsco/maps/pkg/serving"
)

type serveOptions struct {
	data          string
	listen        string
	metricsListen string        // "" means no metrics
	watchInterval time.Duration // 0 means swap on SIGHUP only
	deprecate     []string      // PATH=SUNSET or PATH=DEPRECATED/SUNSET
	drainTimeout  time.Duration
	metering      meteringOptions
	unmetered     bool // only settable in a benchmark build (unmetered_on.go)
	playground    bool // serve the playground page and road tiles (playground.go)
	computeLimit  time.Duration
	admission     api.Admission
	operations    string // road operations store: "" = the ledger's, "none" = none (serve_roadops.go)
}

func newServeCmd(log *slog.Logger) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the /v1 API from a release",
		Long: `serve maps the release in --data (a release directory, or a directory of releases with a
"current" symlink or file naming one) and answers the /v1 API on --listen.

When "current" moves (checked every --watch-interval) or on SIGHUP, serve verifies the release
it names (every checksum), maps it, sends new requests to it and unmaps the old one once its
in-flight requests are done; a release that fails is refused with a log line and the old one
keeps serving. SIGTERM stops accepting connections, lets requests in flight finish (at most
--drain-timeout) and exits. See docs/operations.md.

The ledger (--ledger) must exist (mapd ledger init). With an embedded ledger, serve listens on
an admin socket beside it (FILE-admin.sock, mode 0600), through which the admin commands
(mapd account, credits, key, caps, usage, ledger) change or read it while it serves, each
change seen by the next request. See docs/metering.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return serve(cmd.Context(), log, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.data, "data", "releases", "release directory, or directory of releases with a current pointer")
	f.StringVar(&o.listen, "listen", "127.0.0.1:8080", "address to answer the API on")
	f.StringVar(&o.metricsListen, "metrics-listen", "", "address to serve Prometheus metrics on at /metrics (empty: no metrics)")
	f.DurationVar(&o.watchInterval, "watch-interval", time.Second, "how often to check the current pointer (0: on SIGHUP only)")
	f.StringArrayVar(&o.deprecate, "deprecate", nil, "announce a deprecated path: /v1/PATH=SUNSET or /v1/PATH=DEPRECATED/SUNSET, dates YYYY-MM-DD (repeatable)")
	f.DurationVar(&o.drainTimeout, "drain-timeout", 30*time.Second, "on SIGTERM, how long to wait for requests in flight")
	f.BoolVar(&o.playground, "playground", false, "also serve the playground page at /playground/ and the release's road tiles at /tiles/: no key, no credits, for operators and developers on a trusted network (docs/playground.md)")
	f.DurationVar(&o.computeLimit, "compute-timeout", api.DefaultComputeTimeout, "how long a compute request may take from arrival to answer (queue, computation, charge); past it: 503, free")
	f.IntVar(&o.admission.PerCore, "max-computations-per-core", api.DefaultPerCore, "computations running at once per core; more wait in the queue (negative: no limit)")
	f.IntVar(&o.admission.Queue, "max-queued", 0, "computations that may wait for a slot; beyond: 503 with Retry-After, free (0: 64 per slot)")
	f.DurationVar(&o.admission.QueueTimeout, "queue-timeout", api.DefaultQueueTimeout, "how long a computation may wait for a slot before a 503")
	f.StringVar(&o.operations, "operations", "", "where the road operations (closures, slowdowns) are kept: an embedded ledger file (its FILE.operations) or postgres://...; default: --ledger's; none: apply none (docs/road-operations.md)")
	addMeteringFlags(cmd, &o.metering)
	addBenchmarkFlags(cmd, &o)
	return cmd
}

func serve(ctx context.Context, log *slog.Logger, o serveOptions) error {
	start := time.Now()
	// The cores computations share, before --ledger-sync commit adds Ps
	// for threads blocked in fdatasync.
	o.admission.Cores = runtime.GOMAXPROCS(0)
	dir, err := release.Resolve(o.data)
	if err != nil {
		return err
	}
	rel, err := serving.Open(dir)
	if err != nil {
		return err
	}
	logHierarchies(log, rel)
	live, stopOperations, err := startOperations(ctx, log, o, rel)
	if err != nil {
		rel.Close()
		return err
	}
	defer stopOperations()
	holder := serving.NewHolder(rel)
	metrics := api.NewMetrics(holder)
	if live != nil {
		live.SetReporter(func(a opsresolve.Applied) { metrics.RoadOperations(a.Applied, a.Unresolved) })
	}
	cfg := api.Config{Releases: holder, Log: log, Metrics: metrics, Started: start, ComputeTimeout: o.computeLimit, Admission: o.admission}
	if cfg.Deprecations, err = parseDeprecations(o.deprecate); err != nil {
		return err
	}
	if o.unmetered {
		if err := checkUnmetered(log, o.listen); err != nil {
			return err
		}
	} else {
		metering, ready, closeMetering, err := openMetering(ctx, log, o.metering, o.computeLimit)
		if err != nil {
			return err
		}
		defer closeMetering()
		cfg.Metering, cfg.Ready = metering, ready
	}
	var srv *api.Server
	if o.playground {
		if cfg.Mounts, err = playgroundMounts(log, o.listen, holder, &srv, live); err != nil {
			return err
		}
	}
	tuneGC(ctx, holder)
	if srv, err = api.New(cfg); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.listen, err)
	}
	metricsAddr, stopMetrics, err := serveMetrics(log, o.metricsListen, metrics)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopMetrics()
	if err := watchReleases(ctx, log, o, holder, metrics, live); err != nil {
		ln.Close()
		return err
	}
	log.Info("serving", "listen", ln.Addr().String(), "metrics_listen", metricsAddr, "release", dir,
		"data_version", rel.Manifest.DataVersion, "startup_ms", time.Since(start).Milliseconds(), "rss_mib", rssMiB())
	return serveUntilDone(ctx, log, srv, ln, o.drainTimeout)
}

// checkUnmetered allows a benchmark build's unmetered server only on a
// loopback address, and says loudly that it is one.
func checkUnmetered(log *slog.Logger, listen string) error {
	host, _, err := net.SplitHostPort(listen)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--unmetered serves only on a loopback address, not %q", listen)
	}
	log.Warn("serving UNMETERED: a benchmark build (-tags benchunmetered); never deploy it")
	return nil
}

// serveUntilDone answers on ln until ctx is done (SIGTERM), then stops
// accepting, lets requests in flight finish and returns.
func serveUntilDone(ctx context.Context, log *slog.Logger, srv *api.Server, ln net.Listener, drain time.Duration) error {
	hs := srv.HTTPServer()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(api.Listener(ln)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests in flight", "drain_timeout", drain.String())
	sctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	if err := hs.ShutdownWithContext(sctx); err != nil {
		return fmt.Errorf("shutdown: requests still in flight after %v: %w", drain, err)
	}
	log.Info("shut down")
	return nil
}

// watchReleases swaps releases when "current" moves or SIGHUP arrives, until
// ctx is done.
func watchReleases(ctx context.Context, log *slog.Logger, o serveOptions, holder *serving.Holder, metrics *api.Metrics, live *opsresolve.Live) error {
	cfg := serving.WatchConfig{
		Data: o.data, Holder: holder, Interval: o.watchInterval, Log: log,
		OnSwap: func(ev serving.SwapEvent) { metrics.ReleaseSwap(ev.Outcome) },
	}
	if live != nil {
		cfg.Ready = live.Ready // operations resolved onto a release before it answers
	}
	w, err := serving.NewWatcher(cfg)
	if err != nil {
		return err
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	reload := make(chan struct{}, 1)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				select {
				case reload <- struct{}{}:
				default: // a reload is already pending
				}
			}
		}
	}()
	go w.Run(ctx, reload)
	return nil
}

// serveMetrics serves /metrics on addr through net/http: scrapes are rare,
// so the standard library's cost does not matter and promhttp fits as is.
// It returns the address bound ("" when addr is empty) and a stop func.
func serveMetrics(log *slog.Logger, addr string, m *api.Metrics) (string, func(), error) {
	if addr == "" {
		return "", func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("listen for metrics on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "err", err.Error())
		}
	}()
	return ln.Addr().String(), func() { hs.Close() }, nil
}

// parseDeprecations reads the --deprecate flags.
func parseDeprecations(flags []string) ([]api.Deprecation, error) {
	var out []api.Deprecation
	for _, f := range flags {
		d, err := api.ParseDeprecation(f)
		if err != nil {
			return nil, fmt.Errorf("--deprecate: %w", err)
		}
		out = append(out, d)
	}
	return out, nil
}

// rssMiB reads the resident set size from /proc (Linux).
func rssMiB() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	var size, resident int64
	fmt.Sscan(string(b), &size, &resident)
	return resident * int64(os.Getpagesize()) >> 20
}

// logHierarchies says, per profile, what a departure time costs it: the
// conditional arcs and the hierarchy's shortcuts over them, weighed once
// per distinct state (docs/conditions.md); also in /v1/status.
func logHierarchies(log *slog.Logger, rel *serving.Release) {
	for _, name := range slices.Sorted(maps.Keys(rel.Routers)) {
		r := rel.Routers[name]
		shortcuts, candidates := r.Hierarchy().NumVariable()
		log.Info("hierarchy", "profile", name, "arcs", r.Graph().NumArcs(), "conditional_arcs", len(r.Graph().Cond.Arcs),
			"variable_shortcuts", shortcuts, "candidates", candidates)
	}
}
