package polyline

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// googleExample is the worked example of Google's format documentation, in our [lon, lat] order.
var googleExample = [][2]float64{{-120.2, 38.5}, {-120.95, 40.7}, {-126.453, 43.252}}

func TestKnownVectors(t *testing.T) {
	tests := []struct {
		name      string
		pts       [][2]float64
		precision int
		want      string
	}{
		{"google example, precision 5", googleExample, 5, "_p~iF~ps|U_ulLnnqC_mqNvxq`@"},
		{"google example, precision 6", googleExample, 6, "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI"},
		{"andorra la vella to pas de la casa, precision 6", [][2]float64{{1.5218, 42.5063}, {1.7333, 42.5425}}, 6, "wbkapAog{{AoueAwa|K"},
		{"corners of the world, precision 6", [][2]float64{{180, 90}, {-180, -90}}, 6, "_gdtjD_oiivI~niivI~~ssmT"},
		{"origin", [][2]float64{{0, 0}}, 6, "??"},
		{"no points", nil, 6, ""},
		{"half rounds away from zero, up", [][2]float64{{2.5, 0.5}}, 0, "AE"},
		{"half rounds away from zero, down", [][2]float64{{-2.5, -0.5}}, 0, "@D"},
		{"quarter at precision 1", [][2]float64{{0.25, -0.25}}, 1, "DE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(Append(nil, tt.pts, tt.precision)); got != tt.want {
				t.Errorf("Append = %q, want %q", got, tt.want)
			}
			if tt.name == "no points" || tt.precision == 0 || tt.name == "quarter at precision 1" {
				return // rounding loses these inputs, so decoding cannot give them back exactly
			}
			got, err := Decode([]byte(tt.want), tt.precision)
			if err != nil {
				t.Fatalf("Decode(%q): %v", tt.want, err)
			}
			assertClose(t, got, tt.pts, 0)
		})
	}
}

func TestDecodeRoundedHalves(t *testing.T) {
	got, err := Decode([]byte("AE"), 0)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, got, [][2]float64{{3, 1}}, 0)
	got, err = Decode([]byte("@D"), 0)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, got, [][2]float64{{-3, -1}}, 0)
}

func TestAppendKeepsPrefixAndDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 256)
	buf = append(buf, "geometry:"...)
	allocs := testing.AllocsPerRun(100, func() {
		_ = Append(buf, googleExample, 6)
	})
	if allocs != 0 {
		t.Errorf("Append into a buffer with room allocated %.0f times", allocs)
	}
	if got := string(Append(buf, googleExample, 5)); got != "geometry:_p~iF~ps|U_ulLnnqC_mqNvxq`@" {
		t.Errorf("got %q", got)
	}
}

func TestAppendPanicsOnBadPrecision(t *testing.T) {
	for _, p := range []int{-1, MaxPrecision + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Append with precision %d did not panic", p)
				}
			}()
			Append(nil, googleExample, p)
		}()
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		precision int
		want      error
	}{
		{"character below alphabet", "_p~iF~ps|U ", 5, ErrCharacter},
		{"character above alphabet", "\x7f?", 5, ErrCharacter},
		{"value cut short", "_p~iF~ps|", 5, ErrTruncated},
		{"latitude without longitude", "_p~iF", 5, ErrTruncated},
		{"continuation at the end", "??_", 5, ErrTruncated},
		{"too many groups", "~~~~~~~~~~~~~??", 5, ErrOverflow},
		{"13th group too large", "____________O?", 5, ErrOverflow},
		{"sum overflows", "}~~~~~~~~~~~N?}~~~~~~~~~~~N?", 5, ErrOverflow},
		{"negative precision", "??", -1, ErrPrecision},
		{"precision too large", "??", 11, ErrPrecision},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pts, err := Decode([]byte(tt.in), tt.precision)
			if !errors.Is(err, tt.want) {
				t.Errorf("Decode(%q) = %v, %v; want error %v", tt.in, pts, err, tt.want)
			}
		})
	}
}

func TestDecodeLargestValue(t *testing.T) {
	// 12 groups of 0x1f and a 13th of 0xf: zigzag of MinInt64 (all 64 bits set), the largest legal value.
	in := []byte("~~~~~~~~~~~~N?")
	pts, err := Decode(in, 0)
	if err != nil {
		t.Fatalf("Decode(%q): %v", in, err)
	}
	if len(pts) != 1 || pts[0][1] != math.MinInt64 {
		t.Errorf("got %v, want latitude %d", pts, int64(math.MinInt64))
	}
}

// TestRoundTripRandomPaths is the property: decoding an encoding gives every point back within half a unit of
// the last digit, at every precision, for random WGS84 paths of random lengths.
func TestRoundTripRandomPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		precision := rng.IntN(MaxPrecision + 1)
		pts := randomPath(rng, rng.IntN(60))
		enc := Append(nil, pts, precision)
		got, err := Decode(enc, precision)
		if err != nil {
			t.Fatalf("case %d: Decode(Append(%v, %d)): %v", i, pts, precision, err)
		}
		assertClose(t, got, pts, tolerance(precision))
		if again := Append(nil, got, precision); string(again) != string(enc) {
			t.Fatalf("case %d: re-encoding changed %q to %q", i, enc, again)
		}
	}
}

func randomPath(rng *rand.Rand, n int) [][2]float64 {
	pts := make([][2]float64, n)
	for i := range pts {
		pts[i] = [2]float64{rng.Float64()*360 - 180, rng.Float64()*180 - 90}
	}
	return pts
}

// tolerance is half a unit in the last place kept, plus slack for float64 rounding of the scaled value.
func tolerance(precision int) float64 {
	return 0.5/math.Pow10(precision) + 1e-9
}

func assertClose(t *testing.T, got, want [][2]float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d points %v, want %d %v", len(got), got, len(want), want)
	}
	for i := range want {
		for axis := range 2 {
			if math.Abs(got[i][axis]-want[i][axis]) > tol {
				t.Fatalf("point %d axis %d: got %v, want %v (±%g)", i, axis, got[i][axis], want[i][axis], tol)
			}
		}
	}
}

func BenchmarkAppend(b *testing.B) {
	pts := randomPath(rand.New(rand.NewPCG(3, 4)), 1000)
	buf := make([]byte, 0, 32*len(pts))
	b.ReportAllocs()
	for b.Loop() {
		buf = Append(buf[:0], pts, 6)
	}
}

func BenchmarkDecode(b *testing.B) {
	enc := Append(nil, randomPath(rand.New(rand.NewPCG(3, 4)), 1000), 6)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(enc, 6); err != nil {
			b.Fatal(err)
		}
	}
}
