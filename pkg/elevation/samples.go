package elevation

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/mapsco/maps/pkg/artifact"
)

// Sections of a road network's stored height samples (see Samples), kept in
// the artifact that holds the network's segments. All little-endian.
//
//	terrain.sample_first  uint32 × (segments+1): segment s's samples are
//	                      [first[s], first[s+1]).
//	terrain.sample_off    float32 per sample: metres from the segment's
//	                      first point along its shape.
//	terrain.sample_h      float32 per sample: height in metres, NaN where
//	                      no height anchors the profile (outside coverage,
//	                      or inside a bridge or tunnel).
const (
	SectionSampleFirst = "terrain.sample_first"
	SectionSampleOff   = "terrain.sample_off"
	SectionSampleH     = "terrain.sample_h"
)

// Samples holds, for every segment of a road network, the height samples a
// line along it would take (sampleLine: each piece between shape points cut
// into equal parts no longer than SampleSpacingM), from its first point to
// its last, both included. Because the pieces are cut the same way in both
// directions, a route that follows the segment, either way, takes exactly
// these samples, so mapd reads a route's profile from here instead of
// measuring every piece and reading the DEM for every sample; only the
// partial segments at a route's ends are sampled at request time. mapc
// computes them once per release (BuildSamples) and mapd views them in
// place (OpenSamples).
//
// A bridge or tunnel segment keeps only its end heights, which anchor a run
// of structure where it meets the ground; its inner samples are NaN, as the
// route's fillGaps interpolates them.
type Samples struct {
	First []uint32
	Off   []float32
	H     []float32
}

// segment returns segment s's offsets and heights, or false when s is out
// of range or the sections are inconsistent there (a corrupt file must not
// panic the server: the caller samples the segment itself instead).
func (m *Samples) segment(s uint32) (off, h []float32, ok bool) {
	if m == nil || int(s)+1 >= len(m.First) {
		return nil, nil, false
	}
	a, b := m.First[s], m.First[s+1]
	if a >= b || int(b) > len(m.Off) || int(b) > len(m.H) {
		return nil, nil, false
	}
	return m.Off[a:b], m.H[a:b], true
}

// SegmentLine gives segment s's shape, appended to dst as [lon, lat] points,
// and its structure.
type SegmentLine func(s int, dst [][2]float64) ([][2]float64, Structure)

// BuildSamples samples the n segments that line describes from d, on
// several goroutines (a DEM is safe for concurrent use; each worker has its
// own Profiler). The result is the same whatever the number of workers.
func BuildSamples(d Sampler, n int, line SegmentLine) *Samples {
	workers := runtime.GOMAXPROCS(0)
	chunk := max(1, (n+4*workers-1)/(4*workers))
	parts := make([]Samples, (n+chunk-1)/chunk)
	next := make(chan int, len(parts))
	for i := range parts {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p Profiler
			var pts [][2]float64
			for i := range next {
				parts[i] = p.sampleSegments(d, i*chunk, min(n, (i+1)*chunk), line, pts)
			}
		}()
	}
	wg.Wait()
	return joinSamples(parts, n)
}

// sampleSegments samples segments [from, to), with First relative to the
// part's own samples.
func (p *Profiler) sampleSegments(d Sampler, from, to int, line SegmentLine, pts [][2]float64) Samples {
	var part Samples
	for s := from; s < to; s++ {
		var st Structure
		pts, st = line(s, pts[:0])
		p.sampleLine(d, pts, nil, Ground)
		part.First = append(part.First, uint32(len(part.Off)))
		for i := range p.d {
			h := p.h[i]
			if st != Ground && i > 0 && i < len(p.d)-1 {
				h = math.NaN()
			}
			part.Off = append(part.Off, float32(p.d[i]))
			part.H = append(part.H, float32(h))
		}
	}
	return part
}

// joinSamples concatenates parts, in order, into one Samples of n segments.
func joinSamples(parts []Samples, n int) *Samples {
	total := 0
	for _, pt := range parts {
		total += len(pt.Off)
	}
	m := &Samples{First: make([]uint32, 0, n+1), Off: make([]float32, 0, total), H: make([]float32, 0, total)}
	for _, pt := range parts {
		base := uint32(len(m.Off))
		for _, f := range pt.First {
			m.First = append(m.First, base+f)
		}
		m.Off = append(m.Off, pt.Off...)
		m.H = append(m.H, pt.H...)
	}
	m.First = append(m.First, uint32(len(m.Off)))
	return m
}

// Write adds the samples' sections to an artifact.
func (m *Samples) Write(w *artifact.Writer) error {
	return errors.Join(
		artifact.AddSlice(w, SectionSampleFirst, m.First),
		artifact.AddSlice(w, SectionSampleOff, m.Off),
		artifact.AddSlice(w, SectionSampleH, m.H))
}

// OpenSamples views the samples of a network of n segments in f, in place.
// A file written before samples were stored has none: OpenSamples returns
// nil and no error, and routes are then sampled entirely at request time.
// Only the sections' sizes are checked here (no per-segment work at
// start-up); a segment whose range is inconsistent is sampled at request
// time too.
func OpenSamples(f *artifact.File, n int) (*Samples, error) {
	first, err := artifact.SectionView[uint32](f, SectionSampleFirst)
	if errors.Is(err, artifact.ErrNoSection) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("elevation: samples: %w", err)
	}
	m := &Samples{First: first}
	if m.Off, err = artifact.SectionView[float32](f, SectionSampleOff); err != nil {
		return nil, fmt.Errorf("elevation: samples: %w", err)
	}
	if m.H, err = artifact.SectionView[float32](f, SectionSampleH); err != nil {
		return nil, fmt.Errorf("elevation: samples: %w", err)
	}
	if len(first) != n+1 || len(m.Off) != len(m.H) || int(first[n]) != len(m.Off) {
		return nil, fmt.Errorf("%w: %d sample ranges, %d offsets and %d heights for %d segments",
			ErrCorrupt, len(first), len(m.Off), len(m.H), n)
	}
	return m, nil
}
