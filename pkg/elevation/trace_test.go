package elevation

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
)

// cutLine is a random line cut into segments at random vertices, each
// segment with a random structure (mostly ground), as a road network
// would hold it.
type cutLine struct {
	pts  [][2]float64
	cuts []int       // segment s is pts[cuts[s] : cuts[s+1]+1]
	sts  []Structure // per segment
}

func randomCutLine(rng *rand.Rand) cutLine {
	l := cutLine{pts: randomLine(rng), cuts: []int{0}}
	for k := 1; k < len(l.pts)-1; k++ {
		if rng.IntN(3) == 0 {
			l.cuts = append(l.cuts, k)
		}
	}
	l.cuts = append(l.cuts, len(l.pts)-1)
	for range len(l.cuts) - 1 {
		l.sts = append(l.sts, []Structure{Ground, Ground, Bridge, Tunnel}[rng.IntN(4)])
	}
	return l
}

func (l cutLine) segment(s int) [][2]float64 { return l.pts[l.cuts[s] : l.cuts[s+1]+1] }

// structs gives each piece of the whole line its segment's structure, as
// Profiler.Route takes them.
func (l cutLine) structs() []Structure {
	out := make([]Structure, len(l.pts)-1)
	for s := range l.sts {
		for k := l.cuts[s]; k < l.cuts[s+1]; k++ {
			out[k] = l.sts[s]
		}
	}
	return out
}

// assemble builds the line's profile the way mapd builds a route's: the
// first and last segments sampled now (they stand for the partial segments
// where legs start and end), the others read from m, in reverse when back.
func (l cutLine) assemble(p *Profiler, d Sampler, m *Samples, back bool) Climb {
	n := len(l.sts)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if back {
		slices.Reverse(order)
	}
	p.Begin(d)
	for i, s := range order {
		seg := l.segment(s)
		if back {
			seg = reversed(seg)
		}
		if i == 0 || i == n-1 || !p.Stored(m, uint32(s), back, l.sts[s], seg[0], seg[len(seg)-1]) {
			p.Line(seg, l.sts[s])
		}
	}
	return p.End()
}

func (l cutLine) samples(d Sampler) *Samples {
	return BuildSamples(d, len(l.sts), func(s int, dst [][2]float64) ([][2]float64, Structure) {
		return append(dst, l.segment(s)...), l.sts[s]
	})
}

// climbsAgree compares two Climbs up to the float32 rounding of stored
// offsets and heights.
func climbsAgree(a, b Climb) bool {
	return a.Covered == b.Covered && near(a.AscentM, b.AscentM, 0.01) && near(a.DescentM, b.DescentM, 0.01) &&
		near(a.MaxGrade, b.MaxGrade, 1e-4) && near(a.StartM, b.StartM, 0.001) && near(a.EndM, b.EndM, 0.001) &&
		near(a.LengthM, b.LengthM, 0.01)
}

// TestStoredSamplesMatchRoute is the property mapd relies on: a route
// assembled from stored segment samples, in either direction, has the same
// Climb as Profiler.Route sampling the whole line with its structures, on
// random lines over the real DEM with random bridges and tunnels.
func TestStoredSamplesMatchRoute(t *testing.T) {
	d := openDEM(t, 0)
	rng := rand.New(rand.NewPCG(7, 11))
	var p, ref Profiler
	stored := 0
	for i := range 1500 {
		l := randomCutLine(rng)
		m := l.samples(d)
		structs := l.structs()
		want := ref.Route(d, l.pts, structs)
		if got := l.assemble(&p, d, m, false); !climbsAgree(got, want) {
			t.Fatalf("line %d forward: assembled %+v, sampled whole %+v", i, got, want)
		}
		rs := slices.Clone(structs)
		slices.Reverse(rs)
		want = ref.Route(d, reversed(l.pts), rs)
		if got := l.assemble(&p, d, m, true); !climbsAgree(got, want) {
			t.Fatalf("line %d backward: assembled %+v, sampled whole %+v", i, got, want)
		}
		stored += max(0, len(l.sts)-2)
	}
	if stored < 1500 {
		t.Fatalf("only %d segments read from samples", stored)
	}
}

// TestLineJoinsGaps: pieces that do not meet are joined by a straight
// piece, as if the line had it.
func TestLineJoinsGaps(t *testing.T) {
	ramp := surface(func(d float64) float64 { return 500 + 0.05*d })
	var p Profiler
	p.Begin(ramp)
	p.Line(northLine(0, 400), Ground)
	p.Line(northLine(700, 1000), Ground)
	got := p.End()
	want := RouteClimb(ramp, northLine(0, 400, 700, 1000), nil)
	if !climbsAgree(got, want) || !near(got.LengthM, 1000, 1e-6) {
		t.Errorf("with a gap %+v, whole line %+v", got, want)
	}
}

// TestSamplesRoundTrip writes samples to an artifact and views them back;
// a file without them opens as nil, and a segment whose range is corrupt
// is refused by Stored (the caller samples it instead) rather than read.
func TestSamplesRoundTrip(t *testing.T) {
	d := openDEM(t, 0)
	l := randomCutLine(rand.New(rand.NewPCG(3, 3)))
	m := l.samples(d)
	n := len(l.sts)
	f := writtenArtifact(t, m.Write)
	got, err := OpenSamples(f, n)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.First, m.First) || !slices.Equal(got.Off, m.Off) || !slicesEqualNaN(got.H, m.H) {
		t.Fatalf("read back differs")
	}
	if _, err := OpenSamples(f, n+1); err == nil {
		t.Error("samples for the wrong number of segments opened")
	}
	if none, err := OpenSamples(openedWithout(t), n); none != nil || err != nil {
		t.Errorf("file without samples: %v, %v", none, err)
	}
	bad := &Samples{First: []uint32{0, 5, 2, uint32(len(m.Off))}, Off: m.Off, H: m.H}
	var p Profiler
	p.Begin(d)
	if p.Stored(bad, 1, false, Ground, [2]float64{}, [2]float64{}) || p.Stored(bad, 7, false, Ground, [2]float64{}, [2]float64{}) {
		t.Error("Stored read a corrupt or missing range")
	}
	p.End()
}

func slicesEqualNaN(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool {
		return x == y || (math.IsNaN(float64(x)) && math.IsNaN(float64(y)))
	})
}

// openedWithout is an artifact with no sample sections.
func openedWithout(t *testing.T) *artifact.File {
	return writtenArtifact(t, func(w *artifact.Writer) error { return w.Add("other", []byte{1}) })
}

// writtenArtifact writes an artifact whose sections add gives, and opens
// it until the test ends.
func writtenArtifact(t *testing.T, add func(*artifact.Writer) error) *artifact.File {
	path := filepath.Join(t.TempDir(), "test.map")
	w, err := artifact.NewWriter("graph", "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := add(w); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	f, err := artifact.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// FuzzStoredSamples feeds Stored arbitrary sample sections, as a corrupt
// graph.map could hold them (Open checks sizes, not contents): a route's
// profile must come out, or the segment be refused, without a panic or a
// hang, whatever the ranges, offsets and heights say.
func FuzzStoredSamples(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0, 0}, []byte{0, 0, 0, 0, 0, 0, 0x20, 0x41, 0, 0, 0xa0, 0x41}, uint8(0), false)
	f.Add([]byte{5, 0, 0, 0, 2, 0, 0, 0}, []byte{0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0x7f}, uint8(1), true)
	ramp := surface(func(d float64) float64 { return 800 + 0.03*d })
	f.Fuzz(func(t *testing.T, first, floats []byte, seg uint8, reverse bool) {
		m := &Samples{First: fuzzU32(first), Off: fuzzF32(floats), H: fuzzF32(floats)}
		var p Profiler
		p.Begin(ramp)
		p.Line(northLine(0, 40), Ground)
		for s := range 3 {
			p.Stored(m, uint32(seg)+uint32(s), reverse, Structure(s%3), northLine(40)[0], northLine(90)[0])
		}
		p.Line(northLine(90, 120), Ground)
		p.End()
	})
}

func fuzzU32(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
	}
	return out
}

func fuzzF32(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24)
	}
	return out
}
