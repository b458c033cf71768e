// Package match turns a GPS trace into the routes it most likely drove:
// map matching with a hidden Markov model (Newson and Krumm, "Hidden Markov
// map matching through noise and sparseness", 2009), the method OSRM,
// Valhalla and GraphHopper use.
//
// # The model
//
// The hidden states of a fix are its candidates: the nearest position on
// each of the nearest roads the profile may use (snap.Finder's
// Candidates) within three standard deviations of the GPS error of the
// fix, 5 to 10 of them, more the larger the error (candidates.go).
//
// The emission probability of a candidate is a Gaussian of its distance
// from the fix, of standard deviation sigma: the fix's radius when the
// caller gave one (its GPS accuracy), else estimated from the trace itself
// as Newson and Krumm do, 1.4826 times the median distance from each fix to
// its nearest road (the median absolute deviation, robust to the outliers
// a trace has), kept within [MinSigma, MaxSigma]. A trace recorded at 5 m
// accuracy is then held to it, one at 30 m is allowed its 30 m.
//
// The transition probability from a candidate of one fix to a candidate of
// the next is exponential in |road distance − great-circle distance
// between the fixes|, of scale beta: a vehicle goes from fix to fix about
// as far by road as the crow flies, so a candidate that needs a detour
// (the parallel road, the other carriageway, the slip road) is unlikely.
// Beta is Beta metres when set, otherwise sigma: the difference of the two
// distances of the true path is itself GPS noise, of the order of sigma.
// Road distances come from a plain Dijkstra over the turn graph by length,
// bounded (transition.go): it honours one-way roads, turn restrictions and
// the conditions in force at departure, as directions do.
//
// Viterbi's algorithm (viterbi.go) finds the most likely sequence of
// candidates, in log space.
//
// # Outliers, gaps and splits
//
// A fix with no candidate within three sigmas is an outlier and dropped;
// so is a fix none of whose candidates any candidate of the last matched
// fix reaches within the bound, as long as the next fixes are reached
// (MaxDrops in a row). A fix closer than two sigmas to the last one kept
// adds nothing the model can use (Newson and Krumm drop those): it is not a
// waypoint of the route but is still placed on it (its tracepoint).
// The trace is split into several matchings where the time between two
// fixes exceeds MaxGap, and where more than MaxDrops fixes in a row cannot
// be reached (the trace left the network, or a fix far off it): each part
// is matched on its own, and a part of one fix is no matching.
//
// # The answer
//
// Each matching is a route.Route through its matched positions, built by
// package route as directions are (legs, totals, shape, steps), with a
// confidence in [0, 1]: the mean over its fixes of the posterior share of
// the chosen candidate among the fix's candidates (1 where the model had
// no doubt), times the share of the fixes of its span it kept.
//
// A Matcher is safe for concurrent use; results own their memory.
package match

import (
	"context"
	"errors"
	"time"

	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// Defaults of Options.
const (
	// DefaultCandidates and MaxCandidates bound how many roads a fix may
	// be on: the nearest five serve a precise fix, a wide one needs more
	// (Matcher.roads).
	DefaultCandidates = 5
	MaxCandidates     = 10
	// MinSigma and MaxSigma bound the GPS error estimated from a trace,
	// in metres: 4 m is a good receiver in the open (Newson and Krumm
	// found 4.07 m), 50 m a phone in a city canyon.
	MinSigma = 4.0
	MaxSigma = 50.0
	// DefaultSearchRadius bounds how far, in metres, the fixes of a trace
	// are looked at for roads when no radius is given: 3 × MaxSigma.
	DefaultSearchRadius = 3 * MaxSigma
	// DefaultMaxGap is the time between two fixes, in seconds, beyond
	// which the trace is split: over ten minutes without a fix the
	// vehicle may have gone anywhere (Andorra's 3 km Envalira tunnel takes
	// 3 minutes at 60 km/h, 5 in a queue).
	DefaultMaxGap = 600.0
	// DefaultMaxDrops is how many fixes in a row may be unreachable before
	// the trace is split there.
	DefaultMaxDrops = 8
)

// Options tune the model; the zero value is the default of each field.
type Options struct {
	Candidates int     // roads a fix may be on; 0 for 5 to 10 by its GPS error (Matcher.roads)
	Sigma      float64 // GPS error in metres for fixes without a radius; 0 to estimate it
	Beta       float64 // transition scale in metres; 0 for sigma
	MaxGap     float64 // seconds; 0 for DefaultMaxGap
	MaxDrops   int     // 0 for DefaultMaxDrops
}

func (o Options) withDefaults() Options {
	if o.MaxGap <= 0 {
		o.MaxGap = DefaultMaxGap
	}
	if o.MaxDrops <= 0 {
		o.MaxDrops = DefaultMaxDrops
	}
	return o
}

// Trace is what to match.
type Trace struct {
	Points    []route.Point
	Times     []float64 // seconds, non-decreasing, one per point; nil when unknown
	Radiuses  []float64 // GPS accuracy (one standard deviation) in metres per point, 0 for unknown; nil for none
	Departure time.Time // for the conditions in force; the zero time means now
	Steps     bool      // narrate each matching's legs
	MaxSteps  int       // per leg, 0 for no limit (route.Request.MaxSteps)
}

// Result is the answer: the matchings in trace order and, per input point,
// where it was placed.
type Result struct {
	Matchings   []Matching
	Tracepoints []Tracepoint
	Sigma       float64 // the GPS error used for points without a radius, metres
}

// Matching is one continuous part of the trace matched to the roads.
type Matching struct {
	Route      *route.Route // legs between consecutive waypoints
	Confidence float64      // in [0, 1]
	Waypoints  []int        // the input index of each of Route.Snapped
}

// Tracepoint is where an input point was placed, if it was.
type Tracepoint struct {
	Matched   bool // false: dropped as an outlier or in no matching
	Place     snap.Result
	Matching  int // index in Result.Matchings
	Waypoint  int // index in the matching's waypoints, -1 for a point folded into a leg
	Alternate int // how many other candidates the point had
}

// ErrNoMatch: no two points of the trace could be matched.
var ErrNoMatch = errors.New("match: no two points of the trace could be matched to roads")

// Matcher matches traces on one profile's network.
type Matcher struct {
	r    *route.Router
	opts Options
}

// New returns a matcher for router r's profile.
func New(r *route.Router, o Options) *Matcher {
	return &Matcher{r: r, opts: o.withDefaults()}
}

// Match matches trace t. It fails with ErrNoMatch, with ctx's error, or
// with route's when a matching's route cannot be built.
func (m *Matcher) Match(ctx context.Context, t Trace) (*Result, error) {
	st := m.r.StateAt(t.Departure)
	g := m.r.Graph()
	cs := m.candidates(t, st)
	s := getSearch(g, st)
	defer putSearch(s)
	parts, err := m.viterbi(ctx, s, t, cs)
	if err != nil {
		return nil, err
	}
	res := &Result{Tracepoints: make([]Tracepoint, len(t.Points)), Sigma: cs.sigma}
	for _, p := range parts {
		if err := m.build(ctx, res, t, cs, p, st); err != nil {
			return nil, err
		}
	}
	if len(res.Matchings) == 0 {
		return nil, ErrNoMatch
	}
	return res, nil
}
