package compare

import (
	"fmt"
	"runtime"
	"time"
)

// Options say what to sample. The zero value of a field means its default,
// given in brackets.
type Options struct {
	// Pairs is the number of routes per profile [1000].
	Pairs int
	// Seed seeds the sample [1].
	Seed uint64
	// Landmarks are routes the user names, routed on both releases whatever
	// the sample.
	Landmarks []Landmark
	// MatrixPoints is the side of each profile's square matrix [20]; the
	// matrix takes the first kept points of the profile.
	MatrixPoints int
	// Isochrones is the number of isochrone origins over all profiles, taken
	// in turn [50]; IsochroneMinutes is their budget [10].
	Isochrones       int
	IsochroneMinutes float64
	// ElevationPoints is the number of points whose height is compared [200].
	ElevationPoints int
	// PresenceM: a point drawn on an old road is present in the new release
	// when the new release snaps it within this many metres [5].
	PresenceM float64
	// Departure is when the routes leave, for time-conditioned roads
	// and turns; both releases use the same instant [the time Run starts].
	Departure time.Time
	// Worst is how many of the largest changes each list keeps [20].
	Worst int
	// Workers is the number of goroutines [GOMAXPROCS].
	Workers int
	// Map asks for the routes' shapes and a picture of the road network,
	// for the HTML report; without it the report has neither.
	Map bool
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.Pairs, 1000)
	def(&o.MatrixPoints, 20)
	def(&o.Isochrones, 50)
	def(&o.ElevationPoints, 200)
	def(&o.Worst, 20)
	def(&o.Workers, runtime.GOMAXPROCS(0))
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.IsochroneMinutes == 0 {
		o.IsochroneMinutes = 10
	}
	if o.PresenceM == 0 {
		o.PresenceM = 5
	}
	if o.Departure.IsZero() {
		o.Departure = time.Now()
	}
	return o
}

// validate refuses options that would sample nothing useful. Counts may be
// negative to mean "none" for the optional parts (matrix, isochrones,
// elevation); pairs may not.
func (o Options) validate() error {
	switch {
	case o.Pairs < 1:
		return fmt.Errorf("compare: pairs %d: want at least 1", o.Pairs)
	case o.MatrixPoints == 1:
		return fmt.Errorf("compare: matrix points 1: want 2 or more, or negative for none")
	case o.IsochroneMinutes < 0 || o.IsochroneMinutes > 120:
		return fmt.Errorf("compare: isochrone minutes %g: want 0 to 120", o.IsochroneMinutes)
	case o.PresenceM < 0 || o.PresenceM > 1000:
		return fmt.Errorf("compare: presence radius %g m: want 0 to 1000", o.PresenceM)
	case o.Worst < 1:
		return fmt.Errorf("compare: worst %d: want at least 1", o.Worst)
	}
	for i, l := range o.Landmarks {
		if err := l.validate(); err != nil {
			return fmt.Errorf("compare: landmark %d: %w", i, err)
		}
	}
	return nil
}
