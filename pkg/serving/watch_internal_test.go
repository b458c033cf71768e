package serving

import (
	"errors"
	"testing"

	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/route"
)

// A release without a profile or the elevation model the served one has
// would turn those requests into errors: refuse it. Extra profiles are fine.
func TestCompatible(t *testing.T) {
	rel := func(v string, profiles ...string) *Release {
		r := &Release{Dir: "/releases/" + v, Manifest: &release.Manifest{DataVersion: v}, Routers: map[string]*route.Router{}}
		for _, p := range profiles {
			r.Routers[p] = nil
		}
		return r
	}
	if err := compatible(rel("a", "car", "moto"), rel("b", "car", "moto", "truck")); err != nil {
		t.Errorf("more profiles refused: %v", err)
	}
	err := compatible(rel("a", "car", "moto"), rel("b", "car"))
	if !errors.Is(err, ErrIncompatible) {
		t.Errorf("missing profile: %v", err)
	}
	withDEM := rel("a", "car")
	withDEM.DEM = &elevation.DEM{}
	if err := compatible(withDEM, rel("b", "car")); !errors.Is(err, ErrIncompatible) {
		t.Errorf("missing elevation model: %v", err)
	}
	if err := compatible(rel("a", "car"), withDEM); err != nil {
		t.Errorf("a release gaining elevation refused: %v", err)
	}
}
