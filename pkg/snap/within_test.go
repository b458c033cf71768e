package snap_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// TestWithinFindsEveryPiece compares Within with a scan of every piece of
// every segment, over random boxes of many sizes in and around Andorra.
func TestWithinFindsEveryPiece(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	net, ix := rel.Network, rel.Snap
	minLon, minLat, maxLon, maxLat := ix.Bounds()
	rng := rand.New(rand.NewPCG(22, 1))
	n := 200
	if testing.Short() {
		n = 50
	}
	for range n {
		w := math.Pow(10, -3+3*rng.Float64()) // 0.001 to 1 degree
		lon := minLon - 0.1 + rng.Float64()*(maxLon-minLon+0.2)
		lat := minLat - 0.1 + rng.Float64()*(maxLat-minLat+0.2)
		box := [4]float64{lon, lat, lon + w, lat + w*0.7}
		got := map[[2]uint32]bool{}
		ix.Within(box[0], box[1], box[2], box[3], func(seg, piece uint32) { got[[2]uint32{seg, piece}] = true })
		for s := range uint32(net.NumSegments()) {
			begin, end := net.Points(s)
			for pt := begin; pt+1 < end; pt++ {
				aLon, aLat := net.Point(pt)
				bLon, bLat := net.Point(pt + 1)
				meets := math.Max(aLon, bLon) >= box[0] && math.Min(aLon, bLon) <= box[2] &&
					math.Max(aLat, bLat) >= box[1] && math.Min(aLat, bLat) <= box[3]
				if meets && !got[[2]uint32{s, pt}] {
					t.Fatalf("box %v: piece %d of segment %d meets it but Within did not report it", box, pt, s)
				}
			}
		}
	}
	if ix.CoversAll(minLon+0.01, minLat, maxLon, maxLat) || !ix.CoversAll(minLon-1, minLat-1, maxLon+1, maxLat+1) {
		t.Error("CoversAll is wrong about the grid's own bounds")
	}
}
