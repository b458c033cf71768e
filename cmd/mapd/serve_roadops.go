package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/mapsco/maps/pkg/roadops"
	opsresolve "github.com/mapsco/maps/pkg/roadops/resolve"
	"github.com/mapsco/maps/pkg/serving"
)

// operationsLocation is where serve reads road operations: --operations,
// else the ledger's location (its .operations file beside an embedded
// ledger, or its PostgreSQL database); "" for none (an unmetered benchmark
// server without --operations, or --operations none).
func operationsLocation(o serveOptions) string {
	switch {
	case o.operations == "none":
		return ""
	case o.operations != "":
		return o.operations
	case o.unmetered:
		return ""
	}
	return o.metering.ledger
}

// startOperations opens the road operations store, applies what it holds to
// rel before rel answers, and keeps every change applied (roadops.Watch)
// until ctx ends. The returned Live applies them to each release swapped in
// (serving.WatchConfig.Ready); nil when serve reads no operations.
func startOperations(ctx context.Context, log *slog.Logger, o serveOptions, rel *serving.Release) (*opsresolve.Live, func(), error) {
	where := operationsLocation(o)
	if where == "" {
		return nil, func() {}, nil
	}
	store, err := roadops.Open(ctx, where)
	if err != nil {
		return nil, nil, fmt.Errorf("open road operations: %w", err)
	}
	ops, err := store.List(ctx)
	if err != nil {
		store.Close()
		return nil, nil, fmt.Errorf("road operations: %w", err)
	}
	live := opsresolve.NewLive(store, log)
	live.Publish(ops)
	live.Ready(rel)
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		roadops.WatchWith(wctx, store, roadops.WatchOptions{Logger: log}, live.Publish)
	}()
	return live, func() { cancel(); <-done; store.Close() }, nil
}
