package elevation

import (
	"math"

	"github.com/mapsco/maps/pkg/geo"
)

// Sampler is anything that gives a height at a point: *DEM, or a synthetic
// surface in tests. ok is false outside coverage.
type Sampler interface {
	At(lon, lat float64) (h float64, ok bool)
}

// Structure says how a piece of road meets the terrain.
type Structure uint8

const (
	// Ground roads follow the terrain: their heights come from the DEM.
	Ground Structure = iota
	// Bridge and Tunnel pieces take heights interpolated linearly, by
	// distance, between the ground heights at their two ends: the DEM under a
	// bridge is the valley and above a tunnel the mountain.
	Bridge
	Tunnel
)

// StructureOf is the Structure of a road that is a bridge, a tunnel, or
// neither (a tunnel under a bridge is a tunnel: it is inside the ground).
func StructureOf(bridge, tunnel bool) Structure {
	switch {
	case tunnel:
		return Tunnel
	case bridge:
		return Bridge
	}
	return Ground
}

// SampleSpacingM is the largest distance between two height samples along a
// line: about the post spacing of a 1 arc-second (30 m) DEM, so no post is
// skipped, and a third of SRTM3's, so bilinear slopes are followed closely.
const SampleSpacingM = 30

// sampleLine fills p.d (distance from the start, metres) and p.h (height or
// NaN) along pts. Each segment is cut into equal pieces no longer than
// SampleSpacingM, so samples include every vertex and are spaced the same in
// both directions. Samples inside a run of bridge or tunnel segments are left
// NaN ("not anchored"), as are samples outside coverage; fillGaps then
// interpolates both. structs[i] is segment i's structure; when structs is nil
// every segment has structure all.
func (p *Profiler) sampleLine(s Sampler, pts [][2]float64, structs []Structure, all Structure) {
	p.begin(s)
	defer p.seq.end()
	p.appendPieces(pts, structs, all)
	if n := len(pts); n > 0 {
		p.add(p.dist, pts[n-1][0], pts[n-1][1], true) // the end is always a ground anchor
	}
	p.src = nil // a pooled Profiler must not keep a closed release's DEM reachable
}

// begin starts a profile read from s: no samples, no last point, at
// distance 0, after ground (the start is a ground anchor).
func (p *Profiler) begin(s Sampler) {
	p.d, p.h = p.d[:0], p.h[:0]
	p.src, p.dist, p.prev, p.has = s, 0, Ground, false
	if d, ok := s.(*DEM); ok {
		p.seq.begin(d)
	}
}

// appendPieces samples the pieces pts[i]→pts[i+1], continuing the profile
// at p.dist after a piece of structure p.prev, but not pts' last point,
// which starts whatever follows. Pieces shorter than a millimetre (a point
// repeated where two edges join) are skipped.
func (p *Profiler) appendPieces(pts [][2]float64, structs []Structure, all Structure) {
	cosA := 0.0
	if len(pts) > 0 {
		cosA = math.Cos(pts[0][1] * rad)
	}
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		var l float64
		l, cosA = pieceLength(a, b, cosA)
		if l < 1e-3 {
			continue
		}
		seg := all
		if structs != nil {
			seg = structs[i]
		}
		k := max(1, int(math.Ceil(l/SampleSpacingM)))
		for j := 0; j < k; j++ {
			f := float64(j) / float64(k)
			anchored := seg == Ground || (j == 0 && p.prev == Ground)
			p.add(p.dist+f*l, a[0]+f*(b[0]-a[0]), a[1]+f*(b[1]-a[1]), anchored)
		}
		p.dist += l
		p.prev = seg
	}
}

const rad = math.Pi / 180

// pieceLength is geo.Distance(a, b) (haversine) given the cosine of a's
// latitude, and returns b's for the next piece: the same operations in the
// same order, so the same result, with one cosine per point of a line
// rather than two.
func pieceLength(a, b [2]float64, cosA float64) (l, cosB float64) {
	dLat := (b[1] - a[1]) * rad
	dLon := (b[0] - a[0]) * rad
	s1 := math.Sin(dLat / 2)
	s2 := math.Sin(dLon / 2)
	cosB = math.Cos(b[1] * rad)
	h := s1*s1 + cosA*cosB*s2*s2
	return 2 * geo.EarthRadius * math.Asin(math.Min(1, math.Sqrt(h))), cosB
}

func (p *Profiler) add(d, lon, lat float64, anchored bool) {
	h := math.NaN()
	if anchored {
		if v, ok := p.at(lon, lat); ok {
			h = v
		}
	}
	p.d = append(p.d, d)
	p.h = append(p.h, h)
}

// at reads the line's Sampler, through the sequential reader when begin
// set one up.
func (p *Profiler) at(lon, lat float64) (float64, bool) {
	if p.seq.d != nil {
		return p.seq.at(lon, lat)
	}
	return p.src.At(lon, lat)
}

// fillGaps replaces NaN heights by linear interpolation, by distance, between
// the nearest known samples on each side, or by the nearest known sample at
// the ends. It reports false when no sample is known.
func fillGaps(d, h []float64) bool {
	last := -1
	for i, v := range h {
		if math.IsNaN(v) {
			continue
		}
		if last < 0 {
			for k := 0; k < i; k++ {
				h[k] = v
			}
		} else if span := d[i] - d[last]; i-last > 1 {
			for k := last + 1; k < i; k++ {
				f := 0.0
				if span > 0 {
					f = (d[k] - d[last]) / span
				}
				h[k] = h[last] + f*(v-h[last])
			}
		}
		last = i
	}
	if last < 0 {
		return false
	}
	for k := last + 1; k < len(h); k++ {
		h[k] = h[last]
	}
	return true
}
