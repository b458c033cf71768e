package api

import (
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
)

// matrixOp is POST /v1/matrix.
var matrixOp = endpoint[MatrixRequest]{
	name:   "matrix",
	decode: DecodeMatrix,
	cost:   func(r MatrixRequest) int64 { return startedUnits(len(r.Sources)*len(r.Targets), 10) },
	run:    runMatrix,
}

func runMatrix(rc *runContext, req MatrixRequest, dst []byte) ([]byte, *failure) {
	router, fail := rc.router(req.Profile)
	if fail != nil {
		return dst, fail
	}
	q, err := router.QueryContext(rc.context()) // waits for a search worker until the deadline
	if err != nil {
		return dst, &failure{kind: KindServiceUnavailable, retryAfter: 1, detail: "the matrix did not start in time; retry"}
	}
	defer router.PutQuery(q)
	q.SetState(router.StateAt(departureOf(req.HasDepartureTime, req.DepartureTime)))
	t := matrix.Compute(router, q, points(req.Sources), points(req.Targets))
	// One allocation for the grids (about 18 bytes a cell for both) rather
	// than a dozen doublings of the 1 KiB the envelope started with.
	dst = slices.Grow(dst, 64+18*len(req.Sources)*len(req.Targets))
	dst = appendKey(dst, "profile", true)
	dst = appendString(dst, req.Profile)
	dst = appendKey(dst, "durations", true)
	dst = appendGrid(dst, t.Durations, 3)
	dst = appendKey(dst, "distances", true)
	return appendGrid(dst, t.Distances, 1), nil
}

func points(cs []Coordinate) []route.Point {
	pts := make([]route.Point, len(cs))
	for i, c := range cs {
		pts[i] = route.Point(c)
	}
	return pts
}

// appendGrid writes rows of numbers, null for NaN (an unroutable pair,
// spec behaviour rule 4).
func appendGrid(dst []byte, rows [][]float64, decimals int) []byte {
	dst = append(dst, '[')
	for i, row := range rows {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		for j, v := range row {
			if j > 0 {
				dst = append(dst, ',')
			}
			if math.IsNaN(v) {
				dst = append(dst, "null"...)
			} else {
				dst = appendFixed(dst, v, decimals)
			}
		}
		dst = append(dst, ']')
	}
	return append(dst, ']')
}
