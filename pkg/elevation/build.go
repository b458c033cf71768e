package elevation

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"time"

	"github.com/mapsco/maps/pkg/artifact"
)

// Stats describes what Build wrote.
type Stats struct {
	Inputs          int           // rasters read
	Tiles           int           // 1°×1° tiles written
	Blocks          int           // compressed blocks written
	Posts           int64         // posts in all tiles
	FilledPosts     int64         // void posts filled by interpolation
	EmptyPosts      int64         // posts left without data: outside every source, or in a void with no valid rim
	RawBytes        int64         // size of the posts as uint16, before compression
	CompressedBytes int64         // size of the blocks section
	Elapsed         time.Duration // wall time of Build
	Extents         []Extent      // per raster, in the order given
}

// Extent is the area a raster's posts span, in degrees: what mapc checks
// the roads against (a raster covering none of them is a wrong tile list).
type Extent struct {
	Path                     string
	West, South, East, North float64
}

// Contains reports whether lon, lat lies within the extent.
func (e Extent) Contains(lon, lat float64) bool {
	return lon >= e.West && lon <= e.East && lat >= e.South && lat <= e.North
}

// Build reads rasters, cuts them into 1°×1° tiles, fills their voids and
// adds the elevation sections (see the package doc) to w. Where sources
// overlap, the earlier raster wins post by post, so list the best source
// first. The same rasters in the same order give byte-identical sections.
// log may be nil. Build does not close the rasters (pkg/dem opens and closes
// them for mapc).
func Build(ctx context.Context, rasters []Raster, w *artifact.Writer, log *slog.Logger) (*Stats, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if len(rasters) == 0 {
		return nil, ErrNoInput
	}
	start := time.Now()
	srcs := make([]*source, 0, len(rasters))
	for _, r := range rasters {
		s, err := newSource(r)
		if err != nil {
			return nil, err
		}
		log.Info("elevation source", "path", r.Name(), "size", fmt.Sprintf("%dx%d", s.w, s.h),
			"cells_per_degree", s.cellsLat)
		srcs = append(srcs, s)
	}
	plan := planTiles(srcs)
	if len(plan) == 0 {
		return nil, fmt.Errorf("%w: %d rasters cover no tile", ErrNoInput, len(rasters))
	}
	st := &Stats{Inputs: len(srcs)}
	for _, s := range srcs {
		west, south, east, north := s.extent()
		st.Extents = append(st.Extents, Extent{Path: s.r.Name(), West: west, South: south, East: east, North: north})
	}
	enc := newEncoder()
	var buf []float32
	for _, tp := range plan {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var err error
		if buf, err = buildTile(ctx, tp, enc, st, buf); err != nil {
			return nil, err
		}
		log.Debug("elevation tile", "lat", tp.lat, "lon", tp.lon)
	}
	if err := enc.write(w); err != nil {
		return nil, err
	}
	st.Blocks, st.CompressedBytes, st.Elapsed = len(enc.index)-1, int64(len(enc.blocks)), time.Since(start)
	log.Info("elevation built", "tiles", st.Tiles, "blocks", st.Blocks, "filled_posts", st.FilledPosts,
		"empty_posts", st.EmptyPosts, "bytes", st.CompressedBytes, "elapsed", st.Elapsed)
	return st, nil
}

// tilePlan is one tile to build and the sources that reach it, in input order.
type tilePlan struct {
	lat, lon   int32
	nLat, nLon int32
	srcs       []*source
}

// planTiles lists the tiles whose interior some source covers, sorted by
// tileKey, each at the finest resolution among its sources. A source that only
// touches a tile's edge (SRTM's shared edge rows) does not create that tile,
// but does feed it when the tile exists for another reason.
func planTiles(srcs []*source) []tilePlan {
	byKey := map[int64]*tilePlan{}
	for _, s := range srcs {
		west, south, east, north := s.extent()
		for la := math.Floor(south + 1e-9); la < north-1e-9; la++ {
			for lo := math.Floor(west + 1e-9); lo < east-1e-9; lo++ {
				if la < -90 || la >= 90 || lo < -180 || lo >= 180 {
					continue
				}
				k := tileKey(int32(la), int32(lo))
				if byKey[k] == nil {
					byKey[k] = &tilePlan{lat: int32(la), lon: int32(lo)}
				}
			}
		}
	}
	keys := make([]int64, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	plan := make([]tilePlan, 0, len(keys))
	for _, k := range keys {
		tp := byKey[k]
		for _, s := range srcs {
			if s.reaches(tp.lat, tp.lon) {
				tp.srcs = append(tp.srcs, s)
				tp.nLat, tp.nLon = max(tp.nLat, s.cellsLat), max(tp.nLon, s.cellsLon)
			}
		}
		plan = append(plan, *tp)
	}
	return plan
}

// reaches reports whether s covers any post of the closed tile square.
func (s *source) reaches(lat, lon int32) bool {
	west, south, east, north := s.extent()
	hx, hy := 0.5*s.gt[1], -0.5*s.gt[5]
	return west-hx <= float64(lon+1) && east+hx >= float64(lon) &&
		south-hy <= float64(lat+1) && north+hy >= float64(lat)
}

// buildTile assembles, fills and encodes one tile.
func buildTile(ctx context.Context, tp tilePlan, enc *encoder, st *Stats, buf []float32) ([]float32, error) {
	t := newTileGrid(tp.lat, tp.lon, tp.nLat, tp.nLon)
	for _, s := range tp.srcs {
		var err error
		if buf, err = s.fill(t, buf); err != nil {
			return buf, err
		}
	}
	filled, empty, err := fillVoids(ctx, t)
	if err != nil {
		return buf, fmt.Errorf("elevation: fill voids of tile %d,%d: %w", tp.lat, tp.lon, err)
	}
	g := newGrid(tp.lat, tp.lon, tp.nLat, tp.nLon)
	for i, h := range t.h {
		if !math.IsNaN(float64(h)) {
			g.v[i] = encodeHeight(math.Max(MinHeightM, math.Min(MaxHeightM, float64(h))))
		} else if !t.covered[i] {
			empty++
		}
	}
	enc.addTile(g)
	st.Tiles++
	st.Posts += int64(len(g.v))
	st.FilledPosts += int64(filled)
	st.EmptyPosts += int64(empty)
	st.RawBytes += 2 * int64(len(g.v))
	return buf, nil
}
