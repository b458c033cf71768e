package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/api"
	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ratelimit"
)

// meteringOptions are serve's ledger and rate-limit flags.
type meteringOptions struct {
	ledger    string // bbolt file or postgres:// URL
	rateLimit int    // default requests/second per key
	limiter   string // "memory" or redis://
}

func addMeteringFlags(cmd *cobra.Command, o *meteringOptions) {
	f := cmd.Flags()
	f.StringVar(&o.ledger, "ledger", "ledger.db", "ledger: an embedded file, or postgres://... shared by replicas")
	f.IntVar(&o.rateLimit, "rate-limit", api.DefaultRate, "requests per second per key, for keys without their own limit")
	f.StringVar(&o.limiter, "ratelimit", "memory", "where rate limits are counted: memory (this process) or redis://... (shared by replicas)")
}

// openMetering opens the ledger and the limiter. ready reports whether the
// ledger answers (for /v1/health/ready); closeAll releases both.
func openMetering(ctx context.Context, o meteringOptions) (m *api.Metering, ready func(context.Context) error, closeAll func(), err error) {
	if o.rateLimit < 1 {
		return nil, nil, nil, fmt.Errorf("--rate-limit %d: want at least 1 request per second", o.rateLimit)
	}
	store, err := ledger.Open(ctx, o.ledger)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open ledger: %w", err)
	}
	lim, err := ratelimit.Open(ctx, o.limiter)
	if err != nil {
		store.Close()
		return nil, nil, nil, fmt.Errorf("open rate limiter: %w", err)
	}
	ready = func(ctx context.Context) error {
		// A lookup of an id that cannot exist costs one index read.
		_, err := store.LookupUsage(ctx, "req_readiness_probe")
		if err == nil || errors.Is(err, ledger.ErrUnknownRequest) {
			return nil
		}
		return fmt.Errorf("ledger: %w", err)
	}
	closeAll = func() {
		lim.Close()
		store.Close()
	}
	return &api.Metering{Meter: store, Limiter: lim, DefaultRate: o.rateLimit}, ready, closeAll, nil
}
