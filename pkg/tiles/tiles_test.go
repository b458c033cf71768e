package tiles_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/maptile"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/tiles"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

// laVella is Andorra la Vella's centre.
var laVella = orb.Point{1.5218, 42.5063}

// decode reads a tile back and returns its features by segment id.
func decode(t *testing.T, b []byte) map[uint32]*geojson.Feature {
	t.Helper()
	layers, err := mvt.Unmarshal(b)
	if err != nil {
		t.Fatalf("the tile does not decode: %v", err)
	}
	out := map[uint32]*geojson.Feature{}
	for _, l := range layers {
		if l.Name != tiles.Layer || l.Extent != tiles.Extent || l.Version != 2 {
			t.Fatalf("layer %q extent %d version %d; want %q, %d, 2", l.Name, l.Extent, l.Version, tiles.Layer, tiles.Extent)
		}
		for _, f := range l.Features {
			id, ok := f.ID.(float64) // orb decodes ids as numbers
			if !ok || id != math.Trunc(id) || out[uint32(id)] != nil {
				t.Fatalf("feature id %v (%T): want a segment id once per tile", f.ID, f.ID)
			}
			out[uint32(id)] = f
		}
	}
	return out
}

// project returns segment seg's shape in tile t's units, projected as the
// encoder's library projects it.
func project(net *graph.Network, seg uint32, t maptile.Tile) orb.LineString {
	begin, end := net.Points(seg)
	line := orb.LineString{}
	for i := begin; i < end; i++ {
		lon, lat := net.Point(i)
		line = append(line, orb.Point{lon, lat})
	}
	l := &mvt.Layer{Extent: tiles.Extent, Features: []*geojson.Feature{geojson.NewFeature(line)}}
	l.ProjectToTile(t)
	return l.Features[0].Geometry.(orb.LineString)
}

// TestTilesDrawTheNetwork checks tiles at several zooms against a scan of
// every segment: each road of a class shown at the zoom with a shape point
// inside the tile is drawn, with its class, name and ref, along its shape;
// nothing else is drawn.
func TestTilesDrawTheNetwork(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	net := rel.Network
	src := tiles.New(net, rel.Snap)
	for _, z := range []maptile.Zoom{8, 11, 13, 14} {
		tile := maptile.At(laVella, z)
		b, err := src.Encode(tile)
		if err != nil {
			t.Fatal(err)
		}
		got := decode(t, b)
		shown := 0
		for seg := range uint32(net.NumSegments()) {
			line := project(net, seg, tile)
			f := got[seg]
			visible := tiles.MinZoom(net.Class(seg)) <= uint8(z)
			inside, near := false, false
			for _, p := range line {
				inside = inside || (p[0] >= 0 && p[0] < tiles.Extent && p[1] >= 0 && p[1] < tiles.Extent)
				near = near || (p[0] >= -128 && p[0] < tiles.Extent+128 && p[1] >= -128 && p[1] < tiles.Extent+128)
			}
			long := line.Bound().Max.X()-line.Bound().Min.X() >= 2 || line.Bound().Max.Y()-line.Bound().Min.Y() >= 2
			switch {
			case f == nil && visible && inside && long:
				t.Fatalf("z%d: segment %d (%s %q) lies in the tile but is not drawn", z, seg, net.Class(seg), net.Name(seg))
			case f == nil:
				continue
			case !visible:
				t.Fatalf("z%d: segment %d of class %s is drawn before zoom %d", z, seg, net.Class(seg), tiles.MinZoom(net.Class(seg)))
			case !near:
				t.Fatalf("z%d: segment %d is drawn but lies outside the tile's buffer", z, seg)
			}
			shown++
			checkProperties(t, net, seg, f)
			checkShape(t, seg, f, line)
		}
		if shown != len(got) || shown == 0 {
			t.Fatalf("z%d: %d features, %d of them segments of the network", z, len(got), shown)
		}
		t.Logf("z%d tile %v: %d roads, %d bytes", z, tile, shown, len(b))
	}
}

func checkProperties(t *testing.T, net *graph.Network, seg uint32, f *geojson.Feature) {
	t.Helper()
	want := map[string]string{"class": net.Class(seg), "name": net.Name(seg), "ref": net.Ref(seg)}
	for k, v := range want {
		got, _ := f.Properties[k].(string)
		if got != v || (v == "" && f.Properties[k] != nil) {
			t.Fatalf("segment %d: %s = %v, want %q", seg, k, f.Properties[k], v)
		}
	}
}

// checkShape requires every drawn vertex to lie on the segment's shape (to
// within the rounding to tile units) or on the clipping edge.
func checkShape(t *testing.T, seg uint32, f *geojson.Feature, line orb.LineString) {
	t.Helper()
	var drawn []orb.LineString
	switch g := f.Geometry.(type) {
	case orb.LineString:
		drawn = []orb.LineString{g}
	case orb.MultiLineString:
		drawn = g
	default:
		t.Fatalf("segment %d is drawn as a %s", seg, f.Geometry.GeoJSONType())
	}
	for _, part := range drawn {
		for _, p := range part {
			if d := distToLine(p, line); d > 2 {
				t.Fatalf("segment %d: drawn point %v is %.1f units from its shape", seg, p, d)
			}
		}
	}
}

func distToLine(p orb.Point, line orb.LineString) float64 {
	best := math.Inf(1)
	for i := 0; i+1 < len(line); i++ {
		a, b := line[i], line[i+1]
		dx, dy := b[0]-a[0], b[1]-a[1]
		u := 0.0
		if l2 := dx*dx + dy*dy; l2 > 0 {
			u = math.Max(0, math.Min(1, ((p[0]-a[0])*dx+(p[1]-a[1])*dy)/l2))
		}
		best = math.Min(best, math.Hypot(p[0]-a[0]-u*dx, p[1]-a[1]-u*dy))
	}
	return best
}

func TestTileOutsideTheCountryIsEmpty(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	src := tiles.New(rel.Network, rel.Snap)
	b, err := src.Encode(maptile.At(orb.Point{-30, 40}, 12)) // the Atlantic
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, b); len(got) != 0 {
		t.Errorf("%d roads in the Atlantic", len(got))
	}
}

func TestNoSuchTile(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	src := tiles.New(rel.Network, rel.Snap)
	for _, tile := range []maptile.Tile{{X: 0, Y: 0, Z: tiles.MaxZoom + 1}, {X: 4, Y: 0, Z: 2}, {X: 0, Y: 1 << 10, Z: 10}} {
		if _, err := src.Encode(tile); !errors.Is(err, tiles.ErrNoTile) {
			t.Errorf("tile %v: err %v, want ErrNoTile", tile, err)
		}
	}
}

func TestMinZoom(t *testing.T) {
	cases := []struct {
		class string
		want  uint8
	}{{"motorway", 0}, {"motorway_link", 0}, {"trunk_link", 5}, {"residential", 12}, {"footway", 14}, {"some_new_class", tiles.MaxZoom}, {"", tiles.MaxZoom}}
	for _, c := range cases {
		if got := tiles.MinZoom(c.class); got != c.want {
			t.Errorf("MinZoom(%q) = %d, want %d", c.class, got, c.want)
		}
	}
}

// BenchmarkEncode encodes the tile over Andorra la Vella at a low zoom
// (the whole country's main roads) and at MaxZoom (every street and path).
func BenchmarkEncode(b *testing.B) {
	rel := compiletest.OpenAndorra(b)
	src := tiles.New(rel.Network, rel.Snap)
	for _, z := range []maptile.Zoom{8, 11, 14} {
		tile := maptile.At(laVella, z)
		b.Run(fmt.Sprintf("z%d", z), func(b *testing.B) {
			var n int
			for b.Loop() {
				t, err := src.Encode(tile)
				if err != nil {
					b.Fatal(err)
				}
				n = len(t)
			}
			b.ReportMetric(float64(n), "bytes/tile")
		})
	}
}
