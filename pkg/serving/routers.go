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
	for name, g := range graphs {
		h, err := ch.Load(f, g)
		if err != nil {
			return fmt.Errorf("release %s: %w", r.Dir, err)
		}
		r.Routers[name] = route.NewRouter(g, h, ix, 0)
	}
	return nil
}
