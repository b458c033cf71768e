package elevation

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
)

// andorraPoints are 20 points on Andorra: named places, then a spread over
// the country's box (1.41–1.79 E, 42.43–42.66 N) off the post grid.
var andorraPoints = [][2]float64{
	{1.5218, 42.5063}, // Andorra la Vella
	{1.7331, 42.5425}, // Pas de la Casa
	{1.5347, 42.5096}, // Escaldes-Engordany
	{1.5936, 42.5345}, // Encamp
	{1.5668, 42.5447}, // La Massana
	{1.5317, 42.5587}, // Ordino
	{1.6040, 42.5683}, // Canillo
	{1.4910, 42.4620}, // Sant Julià de Lòria
	{1.7035, 42.5429}, // CG-2 below Port d'Envalira
	{1.7170, 42.5436}, // above the Envalira tunnel
	{1.4265, 42.4501},
	{1.4531, 42.6113},
	{1.4777, 42.5290},
	{1.5123, 42.6432},
	{1.5489, 42.4412},
	{1.6277, 42.4978},
	{1.6502, 42.6015},
	{1.6911, 42.4687},
	{1.7423, 42.5791},
	{1.7788, 42.6220},
}

// gdalBilinear asks GDAL for the bilinear height at each point. GDAL 3.10+
// does it in gdallocationinfo (-r bilinear); older GDAL (Debian 12 has 3.6)
// lacks -r, so we ask gdallocationinfo for the four posts around the point,
// find them with the geotransform gdalinfo reports, and blend them. NaN means
// GDAL gave no value (or a post is a void).
func gdalBilinear(t *testing.T, file string, pts [][2]float64) []float64 {
	var in bytes.Buffer
	for _, p := range pts {
		fmt.Fprintf(&in, "%.10f %.10f\n", p[0], p[1])
	}
	cmd := exec.Command("gdallocationinfo", "-valonly", "-r", "bilinear", "-wgs84", file)
	cmd.Stdin = bytes.NewReader(in.Bytes())
	if out, err := cmd.Output(); err == nil {
		return parseValues(t, out, len(pts))
	}
	gt := gdalGeoTransform(t, file)
	var px bytes.Buffer
	for _, p := range pts {
		fx := (p[0]-gt[0])/gt[1] - 0.5
		fy := (p[1]-gt[3])/gt[5] - 0.5
		x, y := math.Floor(fx), math.Floor(fy)
		for _, d := range [4][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
			fmt.Fprintf(&px, "%.1f %.1f\n", x+d[0]+0.5, y+d[1]+0.5)
		}
	}
	cmd = exec.Command("gdallocationinfo", "-valonly", file)
	cmd.Stdin = &px
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gdallocationinfo: %v", err)
	}
	posts := parseValues(t, out, 4*len(pts))
	res := make([]float64, len(pts))
	for i, p := range pts {
		fx := (p[0]-gt[0])/gt[1] - 0.5
		fy := (p[1]-gt[3])/gt[5] - 0.5
		wx, wy := fx-math.Floor(fx), fy-math.Floor(fy)
		q := posts[4*i : 4*i+4]
		res[i] = q[0]*(1-wx)*(1-wy) + q[1]*wx*(1-wy) + q[2]*(1-wx)*wy + q[3]*wx*wy
		for _, v := range q {
			if v == -32768 {
				res[i] = math.NaN()
			}
		}
	}
	return res
}

func parseValues(t *testing.T, out []byte, n int) []float64 {
	var vals []float64
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		v, err := strconv.ParseFloat(strings.TrimSpace(sc.Text()), 64)
		if err != nil {
			v = math.NaN()
		}
		vals = append(vals, v)
	}
	if len(vals) != n {
		t.Fatalf("gdallocationinfo printed %d values for %d points:\n%s", len(vals), n, out)
	}
	return vals
}

func gdalGeoTransform(t *testing.T, file string) [6]float64 {
	out, err := exec.Command("gdalinfo", "-json", file).Output()
	if err != nil {
		t.Fatalf("gdalinfo %s: %v", file, err)
	}
	var info struct{ GeoTransform []float64 }
	if err := json.Unmarshal(out, &info); err != nil || len(info.GeoTransform) != 6 {
		t.Fatalf("gdalinfo -json %s: %v (%v)", file, err, info.GeoTransform)
	}
	return [6]float64(info.GeoTransform)
}

func TestAtMatchesGDAL(t *testing.T) {
	if _, err := exec.LookPath("gdallocationinfo"); err != nil {
		t.Skip("gdal-bin not installed")
	}
	d := openDEM(t, 0)
	file := "/vsizip/" + tilePath(t, "N42E001") + "/N42E001.hgt"
	want := gdalBilinear(t, file, andorraPoints)
	worst := 0.0
	for i, p := range andorraPoints {
		got, ok := d.At(p[0], p[1])
		if math.IsNaN(want[i]) {
			t.Errorf("%v: GDAL has no value (void among the posts?); pick another point", p)
			continue
		}
		if !ok || math.Abs(got-want[i]) > 1 {
			t.Errorf("At(%v) = %.3f, %v; GDAL bilinear %.3f", p, got, ok, want[i])
		}
		worst = math.Max(worst, math.Abs(got-want[i]))
	}
	t.Logf("largest difference from GDAL over %d points: %.2g m", len(andorraPoints), worst)
}

// TestSpotHeights checks the nearest-post values listed in the data README.
func TestSpotHeights(t *testing.T) {
	d := openDEM(t, 0)
	for _, c := range []struct {
		name     string
		lon, lat float64
		nearest  float64
	}{
		{"Andorra la Vella", 1.5218, 42.5063, 1024},
		{"Pas de la Casa", 1.7331, 42.5425, 2106},
	} {
		// Snap to the nearest post: there bilinear equals the post's value.
		lon := math.Round(c.lon*1200) / 1200
		lat := math.Round(c.lat*1200) / 1200
		if h, ok := d.At(lon, lat); !ok || math.Abs(h-c.nearest) > 1e-6 {
			t.Errorf("%s: post height %.2f, %v; want %.0f", c.name, h, ok, c.nearest)
		}
	}
}

func TestOutsideCoverage(t *testing.T) {
	d := openDEM(t, 0)
	for _, c := range []struct {
		name     string
		lon, lat float64
	}{
		{"Boston", -71.0653, 42.3601},
		{"sea south of the Gulf of Lion", 5, 41.5},
		{"N42E000, a tile not given", 0.99, 42.5},
		{"N43E001, north of Andorra's tile", 1.5, 43.01},
		{"NaN", math.NaN(), 42.5},
		{"latitude out of range", 1.5, 91},
	} {
		if h, ok := d.At(c.lon, c.lat); ok {
			t.Errorf("%s: At = %.1f, want outside coverage", c.name, h)
		}
	}
	// The outer edges of the covered tiles are still inside.
	for _, p := range [][2]float64{{1, 42.5}, {2, 42.5}, {1.5, 43}, {1.5, 41}, {1, 41}, {2, 43}} {
		if _, ok := d.At(p[0], p[1]); !ok {
			t.Errorf("edge point %v: outside coverage", p)
		}
	}
}

// TestTileEdgeContinuous walks along 42°N, the edge N41E001 and N42E001
// share, and checks heights just north, on, and just south of it agree.
func TestTileEdgeContinuous(t *testing.T) {
	d := openDEM(t, 0)
	const eps = 1e-9
	worst := 0.0
	for lon := 1.0; lon <= 2.0; lon += 0.00037 {
		n, ok1 := d.At(lon, 42+eps)
		on, ok2 := d.At(lon, 42)
		s, ok3 := d.At(lon, 42-eps)
		if !ok1 || !ok2 || !ok3 {
			t.Fatalf("lon %.5f: coverage %v %v %v", lon, ok1, ok2, ok3)
		}
		worst = math.Max(worst, math.Max(math.Abs(n-on), math.Abs(s-on)))
	}
	if worst > 0.01 {
		t.Errorf("heights jump by %.3f m across 42°N", worst)
	}
}

// rawHGT reads a tile's posts straight from its zip, without GDAL.
func rawHGT(t *testing.T, name string) []int16 {
	zr, err := zip.OpenReader(tilePath(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil || len(b) != 1201*1201*2 {
		t.Fatalf("%s: %d bytes, %v", name, len(b), err)
	}
	v := make([]int16, 1201*1201)
	for i := range v {
		v[i] = int16(binary.BigEndian.Uint16(b[2*i:]))
	}
	return v
}

// TestVoidsFilled checks every void post of N42E001: At answers there, with
// a value between the lowest and highest valid post on the void's rim. It
// finds the voids in the raw file with its own flood fill.
func TestVoidsFilled(t *testing.T) {
	d := openDEM(t, 0)
	v := rawHGT(t, "N42E001")
	const n, void = 1201, -32768
	seen := make([]bool, len(v))
	voids, comps := 0, 0
	for start := range v {
		if v[start] != void || seen[start] {
			continue
		}
		comp, lo, hi := floodVoid(v, seen, start)
		comps++
		for _, p := range comp {
			lon, lat := 1+float64(p%n)/1200, 43-float64(p/n)/1200
			h, ok := d.At(lon, lat)
			if !ok || h < lo || h > hi {
				t.Fatalf("void post at %.5f,%.5f: %.2f %v, rim range [%.0f, %.0f]", lat, lon, h, ok, lo, hi)
			}
		}
		voids += len(comp)
	}
	if voids != 7652 {
		t.Errorf("found %d void posts, the data README says 7,652", voids)
	}
	// The README's example: a highway node near 42.52452 N 1.52071 E has a
	// void among its four posts.
	h, ok := d.At(1.52071, 42.52452)
	if !ok || math.Abs(h-1129) > 40 {
		t.Errorf("At(1.52071, 42.52452) = %.1f, %v; nearest valid post is 1129 m", h, ok)
	}
	t.Logf("%d void posts in %d voids, all filled within their rim range; At(1.52071, 42.52452) = %.1f m", voids, comps, h)
}

func floodVoid(v []int16, seen []bool, start int) (comp []int, lo, hi float64) {
	const n, void = 1201, -32768
	lo, hi = math.Inf(1), math.Inf(-1)
	seen[start] = true
	comp = []int{start}
	for k := 0; k < len(comp); k++ {
		p := comp[k]
		r, c := p/n, p%n
		for _, q := range [4][2]int{{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}} {
			if q[0] < 0 || q[0] >= n || q[1] < 0 || q[1] >= n {
				continue
			}
			i := q[0]*n + q[1]
			if v[i] != void {
				lo, hi = math.Min(lo, float64(v[i])), math.Max(hi, float64(v[i]))
			} else if !seen[i] {
				seen[i] = true
				comp = append(comp, i)
			}
		}
	}
	return comp, lo, hi
}

func TestAtManyKeepsOrder(t *testing.T) {
	d := openDEM(t, 0)
	pts := make([][2]float64, 1000)
	for i := range pts {
		pts[i] = [2]float64{1.4 + 0.0004*float64(i), 42.43 + 0.00023*float64(i)}
		if i%97 == 0 {
			pts[i] = [2]float64{5, 41.5} // at sea, outside coverage
		}
	}
	hs, oks := d.AtMany(nil, nil, pts)
	if len(hs) != len(pts) || len(oks) != len(pts) {
		t.Fatalf("%d heights, %d flags for %d points", len(hs), len(oks), len(pts))
	}
	for i, p := range pts {
		h, ok := d.At(p[0], p[1])
		if h != hs[i] || ok != oks[i] || ok != (i%97 != 0) {
			t.Fatalf("point %d: AtMany %.2f %v, At %.2f %v", i, hs[i], oks[i], h, ok)
		}
	}
}

// TestDeterministic builds the same input twice and compares the sections.
func TestDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds twice")
	}
	var got [2][]byte
	for i := range got {
		p := t.TempDir() + "/e.elev"
		buildArtifact(t, p, "N42E001")
		f, err := artifact.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{SectionMeta, SectionTiles, SectionIndex, SectionBlocks} {
			b, _ := f.Section(name)
			got[i] = append(got[i], b...)
		}
		f.Close()
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Fatal("two builds of the same input differ")
	}
}
