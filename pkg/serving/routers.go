package serving

import (
	"fmt"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// makeRouters views each profile's contraction hierarchy and gives the
// profile a router over it.
func (r *Release) makeRouters(f *artifact.File, graphs map[string]*graph.Graph, ix *snap.Index) error {
	gate := make(chan struct{}, 1) // one profile customized at a time (route.Router.ShareCustomizing)
	for name, g := range graphs {
		h, err := ch.Load(f, g)
		if err != nil {
			return fmt.Errorf("release %s: %w", r.Dir, err)
		}
		finder, err := ix.For(g)
		if err != nil {
			return fmt.Errorf("release %s: %w", r.Dir, err)
		}
		r.Routers[name] = route.NewRouter(g, h, finder)
		r.Routers[name].ShareCustomizing(gate)
	}
	return nil
}
