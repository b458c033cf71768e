package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/api"
	"github.com/mapsco/maps/pkg/release"
)

type serveOptions struct {
	data   string
	listen string
}

func newServeCmd(log *slog.Logger) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the /v1 API from a release",
		Long: `serve maps the release in --data (a release directory, or a directory of releases with a
"current" symlink or file naming one) and answers the /v1 API on --listen. SIGHUP re-reads
"current" and swaps to it without dropping requests; SIGTERM drains and exits.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return serve(cmd.Context(), log, o) },
	}
	cmd.Flags().StringVar(&o.data, "data", "releases", "release directory, or directory of releases with a current pointer")
	cmd.Flags().StringVar(&o.listen, "listen", "127.0.0.1:8080", "address to listen on")
	return cmd
}

func serve(ctx context.Context, log *slog.Logger, o serveOptions) error {
	start := time.Now()
	dir, err := release.Resolve(o.data)
	if err != nil {
		return err
	}
	rel, err := release.Open(dir)
	if err != nil {
		return err
	}
	holder := release.NewHolder(rel)
	srv, err := api.New(api.Config{Releases: holder, Log: log})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.listen, err)
	}
	log.Info("serving", "listen", ln.Addr().String(), "release", dir, "data_version", rel.Manifest.DataVersion,
		"startup_ms", time.Since(start).Milliseconds(), "rss_mib", rssMiB())
	hs := srv.HTTPServer()
	go reloadOnHUP(ctx, log, o.data, holder)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return hs.ShutdownWithContext(sctx)
}

// reloadOnHUP swaps to the release "current" names whenever SIGHUP arrives;
// a release that fails to open or verify is refused and the old one stays.
func reloadOnHUP(ctx context.Context, log *slog.Logger, data string, holder *release.Holder) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
		}
		dir, err := release.Resolve(data)
		if err == nil {
			err = release.Verify(dir)
		}
		var rel *release.Release
		if err == nil {
			rel, err = release.Open(dir)
		}
		if err != nil {
			log.Error("release swap refused; still serving the previous release", "dir", dir, "err", err)
			continue
		}
		old := holder.Swap(rel)
		log.Info("release swapped", "from", old.Manifest.DataVersion, "to", rel.Manifest.DataVersion)
	}
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
