package compile

import (
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/profile"
)

// ClimbsSection is the graph artifact's section of per-segment terrain:
// three float32 per segment, in segment order: metres climbed and metres
// descended going along the segment's point order (against it, the two
// swap), and the steepest grade as a ratio (pkg/elevation's Climb). It is
// present only in releases built with a DEM.
const ClimbsSection = "terrain.climbs"

// terrain prices segments by grade: graph.Build calls its segmentTimes hook
// for every segment and profile. The climbs are computed once, on the first
// call for a network, since graph.Build lays the network out before it
// prices anything.
type terrain struct {
	dem    *elevation.DEM
	grades []*profile.Grade // per profile index; nil is flat ground
	log    func(msg string, args ...any)

	net     *graph.Network
	climbs  []float32 // ClimbsSection's layout
	samples *elevation.Samples
}

func newTerrain(dem *elevation.DEM, profiles []*profile.Profile, log func(string, ...any)) *terrain {
	t := &terrain{dem: dem, log: log}
	for _, p := range profiles {
		t.grades = append(t.grades, p.Grade)
	}
	return t
}

// segmentTimes is graph.Input.SegmentTimes: the profile's grade model over
// the segment's climb in each direction, in milliseconds.
func (t *terrain) segmentTimes(net *graph.Network, p int, s uint32, kph [2]float32) (fwdMs, bwdMs uint32) {
	if t.net != net {
		t.profileNetwork(net)
	}
	up, down := float64(t.climbs[3*s]), float64(t.climbs[3*s+1])
	length, g := float64(net.SegLength[s]), t.grades[p]
	return millis(g.Seconds(length, up, down, float64(kph[0]))), millis(g.Seconds(length, down, up, float64(kph[1])))
}

// millis rounds seconds to whole milliseconds below graph.NoWay.
func millis(s float64) uint32 {
	if math.IsNaN(s) || s*1000 >= float64(graph.NoWay-1) {
		return graph.NoWay - 1
	}
	return uint32(math.Round(s * 1000))
}

// profileNetwork computes every segment's climb. Ground segments are
// profiled on their own, several workers at once (a DEM is safe for
// concurrent use, a Profiler is not); bridges and tunnels are interpolated
// between the heights structureHeights gives their end nodes, so a tunnel
// cut into several segments never reads the mountain at its joins.
func (t *terrain) profileNetwork(net *graph.Network) {
	start := time.Now()
	t.net, t.climbs = net, make([]float32, 3*net.NumSegments())
	heights := structureHeights(net, t.dem)
	n := net.NumSegments()
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p elevation.Profiler
			var pts [][2]float64
			for s := w; s < n; s += workers {
				pts = segmentPoints(pts[:0], net, uint32(s))
				c := t.segmentClimb(&p, net, uint32(s), pts, heights)
				t.climbs[3*s], t.climbs[3*s+1], t.climbs[3*s+2] = float32(c.AscentM), float32(c.DescentM), float32(c.MaxGrade)
			}
		}()
	}
	wg.Wait()
	t.samples = elevation.BuildSamples(t.dem, n, func(s int, dst [][2]float64) ([][2]float64, elevation.Structure) {
		f := net.SegFlags[s]
		return segmentPoints(dst, net, uint32(s)), elevation.StructureOf(f&graph.FlagBridge != 0, f&graph.FlagTunnel != 0)
	})
	t.log("terrain profiled", "segments", n, "structure_nodes", len(heights), "samples", len(t.samples.Off),
		"elapsed", since(start))
}

// segmentClimb is one segment's climb along its point order.
func (t *terrain) segmentClimb(p *elevation.Profiler, net *graph.Network, s uint32, pts [][2]float64, heights map[uint32]float64) elevation.Climb {
	if !isStructure(net.SegFlags[s]) {
		return p.Edge(t.dem, pts, elevation.Ground)
	}
	a, okA := heights[net.SegFrom[s]]
	b, okB := heights[net.SegTo[s]]
	if okA && okB {
		return elevation.Between(pts, a, b)
	}
	return p.Edge(t.dem, pts, elevation.Tunnel) // no portal in coverage: the segment's own ends
}

// segmentPoints appends segment s's shape as [lon, lat] pairs.
func segmentPoints(dst [][2]float64, net *graph.Network, s uint32) [][2]float64 {
	begin, end := net.Points(s)
	for i := begin; i < end; i++ {
		lon, lat := net.Point(i)
		dst = append(dst, [2]float64{lon, lat})
	}
	return dst
}

func isStructure(flags uint8) bool { return flags&(graph.FlagBridge|graph.FlagTunnel) != 0 }
