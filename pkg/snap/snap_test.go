package snap_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/snap"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

// TestNearestIsNearest compares the grid search with a scan of every
// piece of every usable segment: for random points in Andorra, and for
// points on roads (along pieces and at their vertices, where several roads
// tie at distance zero and the lowest segment id must win, as the grid
// search skips cells that cannot hold anything nearer).
func TestNearestIsNearest(t *testing.T) {
	rel, err := serving.Open(compiletest.Andorra(t))
	if err != nil {
		t.Fatal(err)
	}
	defer rel.Close()
	g := rel.Routers["car"].Graph()
	net := g.Net
	ix := rel.Routers["car"].Index()
	rng := rand.New(rand.NewPCG(4, 4))
	found := 0
	n := 900
	if testing.Short() {
		n = 300
	}
	for i := range n {
		lon, lat := 1.45+rng.Float64()*0.3, 42.45+rng.Float64()*0.18
		if i%3 != 0 { // on a road of the main network: along a piece, or at its first point
			s := uint32(rng.IntN(net.NumSegments()))
			for g.Big[s] == 0 || !g.Usable(s) {
				s = uint32(rng.IntN(net.NumSegments()))
			}
			begin, end := net.Points(s)
			pt := begin + uint32(rng.IntN(int(end-begin-1)))
			aLon, aLat := net.Point(pt)
			bLon, bLat := net.Point(pt + 1)
			f := rng.Float64()
			if i%3 == 2 {
				f = 0
			}
			lon, lat = aLon+f*(bLon-aLon), aLat+f*(bLat-aLat)
		}
		res, err := ix.Nearest(g, lon, lat, snap.MaxDistance)
		best, bestSeg := math.Inf(1), uint32(0)
		for s := range uint32(net.NumSegments()) {
			if !g.Usable(s) || g.Big[s] == 0 {
				continue
			}
			begin, end := net.Points(s)
			for i := begin; i+1 < end; i++ {
				aLon, aLat := net.Point(i)
				bLon, bLat := net.Point(i + 1)
				if d := geo.Project(lon, lat, geo.LonScale(lat), aLon, aLat, bLon, bLat).Dist; d < best {
					best, bestSeg = d, s // segments in increasing order: the first at a distance wins ties
				}
			}
		}
		if best > snap.MaxDistance {
			if err == nil && g.Big[res.Seg] == 1 {
				t.Fatalf("(%f,%f): snapped %.0f m away to the main network, brute force finds none within reach", lon, lat, res.Dist)
			}
			continue
		}
		found++
		if err != nil || math.Abs(res.Dist-best) > 1e-6 || g.Big[res.Seg] != 1 || (res.Dist == best && res.Seg != bestSeg) {
			t.Fatalf("(%f,%f): snapped to segment %d at %.3f m (err %v), nearest main-network road is segment %d at %.3f m",
				lon, lat, res.Seg, res.Dist, err, bestSeg, best)
		}
		if res.Frac < 0 || res.Frac > 1 {
			t.Fatalf("fraction %f", res.Frac)
		}
	}
	t.Logf("%d of %d points snapped, all to the true nearest road of the main network", found, n)
	if _, err := ix.Nearest(g, 3.5, 42.0, snap.MaxDistance); !errors.Is(err, snap.ErrTooFar) {
		t.Fatalf("a point at sea: %v", err)
	}
}
