package matrix

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// pointsPerWorker is how many points (sources plus targets) make another
// goroutine worth its start and its query: a 10×10 table (0.2 ms) stays on
// the caller's goroutine, a 100×100 one uses every core.
const pointsPerWorker = 64

// queries returns q followed by as many queries from r's free workers as
// the table's size and GOMAXPROCS allow, each given q's state so that every
// search sees the same conditions. It never waits for a worker: when the
// others are busy, the table runs on fewer goroutines (the cores are busy
// anyway), and two tables cannot wait on each other's queries.
func queries(r *route.Router, q *ch.Query, points int) []*ch.Query {
	n := min(runtime.GOMAXPROCS(0), max(1, points/pointsPerWorker))
	qs := []*ch.Query{q}
	for len(qs) < n {
		w, ok := r.TryQuery()
		if !ok {
			break
		}
		w.SetStateAs(q)
		qs = append(qs, w)
	}
	return qs
}

// end is a point placed and turned into its search endpoint; Err is set
// when no usable road is near.
type end struct {
	snap.Snapped
	ch.Endpoint
	Err error
}

// placeAll places the points on len(qs) goroutines, each by its options.
// A point asked again with the same options (a table from a list of
// points to the same list, as OSRM's tables are asked) is placed once:
// its end is shared, which nothing changes afterwards.
func placeAll(qs []*ch.Query, r *route.Router, st *graph.State, pts []route.Point, opts []snap.Options) []end {
	ends := make([]end, len(pts))
	first := firstAsked(pts, opts)
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < len(pts); i = int(next.Add(1) - 1) {
			if first[i] != i {
				continue
			}
			s, err := r.PlaceOne(pts[i], opts[i], st)
			if err != nil {
				ends[i].Err = err
				continue
			}
			ends[i] = end{Snapped: s, Endpoint: endpoint(r.Graph(), st, s.Result)}
		}
	}
	var wg sync.WaitGroup
	for range len(qs) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for i, f := range first {
		ends[i] = ends[f]
	}
	return ends
}

// firstAsked gives for each point the index of the first point asked at
// the same place with the same options (its own index for a first).
func firstAsked(pts []route.Point, opts []snap.Options) []int {
	type asked struct {
		p       route.Point
		radius  float64
		bearing snap.Bearing
		any     bool // no bearing
	}
	seen := make(map[asked]int, len(pts))
	first := make([]int, len(pts))
	for i, p := range pts {
		k := asked{p: p, radius: opts[i].Radius, any: opts[i].Bearing == nil}
		if !k.any {
			k.bearing = *opts[i].Bearing
		}
		f, ok := seen[k]
		if !ok {
			f, seen[k] = i, i
		}
		first[i] = f
	}
	return first
}
