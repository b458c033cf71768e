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
		w.SetState(q.State())
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
func placeAll(qs []*ch.Query, r *route.Router, st *graph.State, pts []route.Point, opts []snap.Options) []end {
	ends := make([]end, len(pts))
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < len(pts); i = int(next.Add(1) - 1) {
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
	return ends
}
