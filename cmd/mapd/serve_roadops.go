package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

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
// (serving.WatchConfig.Ready); nil when serve reads no operations. A store
// that cannot be reached at start (PostgreSQL down) does not stop serve: it
// serves without operations, says so, and applies them once the store
// answers, as the ledger's own outage is handled.
func startOperations(ctx context.Context, log *slog.Logger, o serveOptions, rel *serving.Release) (*opsresolve.Live, func(), error) {
	where := operationsLocation(o)
	if where == "" {
		return nil, func() {}, nil
	}
	live := opsresolve.NewLive(nil, log)
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	store, err := openOperations(ctx, where)
	if err != nil {
		log.Error("road operations unavailable: serving without them until their store answers", "err", err.Error())
	} else {
		live.SetStore(store)
		live.Publish(store.ops)
	}
	live.Ready(rel)
	go func() {
		defer close(done)
		s := store
		for s == nil {
			select {
			case <-wctx.Done():
				return
			case <-time.After(2 * time.Second):
			}
			if s, _ = openOperations(wctx, where); s != nil {
				log.Info("road operations store answers again")
				live.SetStore(s)
			}
		}
		defer s.Close()
		roadops.WatchWith(wctx, s, roadops.WatchOptions{Logger: log}, live.Publish)
	}()
	return live, func() { cancel(); <-done }, nil
}

// openedOperations is an open store and what it held when opened.
type openedOperations struct {
	roadops.Store
	ops []roadops.Operation
}

// openOperations opens the store at where and lists it.
func openOperations(ctx context.Context, where string) (*openedOperations, error) {
	s, err := roadops.Open(ctx, where)
	if err != nil {
		return nil, fmt.Errorf("open road operations: %w", err)
	}
	ops, err := s.List(ctx)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("road operations: %w", err)
	}
	return &openedOperations{Store: s, ops: ops}, nil
}
