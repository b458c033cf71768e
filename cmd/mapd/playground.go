package main

import (
	"log/slog"
	"net"

	"github.com/mapsco/maps/pkg/api"
	"github.com/mapsco/maps/pkg/playground"
	opsresolve "github.com/mapsco/maps/pkg/roadops/resolve"
	"github.com/mapsco/maps/pkg/serving"
)

// playgroundMounts serves the playground page and the road tiles it draws
// (serve --playground). The page asks for a secret key, which the
// specification keeps out of browsers on the public internet, so a
// playground on an address other than loopback is logged as a warning.
// Tiles not yet cached are computed at the lowest priority of srv's
// admission; srv is set once the server exists, before it serves.
//
// live (nil when serve reads no road operations) gives the page the
// operations in force, drawn as a layer.
func playgroundMounts(log *slog.Logger, listen string, holder *serving.Holder, srv **api.Server, live *opsresolve.Live) ([]api.Mount, error) {
	opts := playground.Options{Admit: func() (func(), bool) { return (*srv).AdmitLow() }}
	if live != nil {
		opts.Operations = live.Placed
	}
	pg, err := playground.New(holder, opts)
	if err != nil {
		return nil, err
	}
	host, _, _ := net.SplitHostPort(listen)
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		log.Warn("the playground is on for every client of " + listen + ": it takes secret keys in a browser, so serve it only on a trusted network (docs/playground.md)")
	}
	return []api.Mount{
		{Prefix: playground.PagePrefix, Operation: "playground", Handler: pg.Page},
		{Prefix: playground.TilesPrefix, Operation: "tiles", Handler: pg.Tiles},
		{Prefix: playground.PlacesPrefix, Operation: "places", Handler: pg.Places},
		{Prefix: playground.OperationsPrefix, Operation: "roadops", Handler: pg.Operations},
	}, nil
}
