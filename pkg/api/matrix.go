package api

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
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
	st := router.StateWith(departureOf(req.HasDepartureTime, req.DepartureTime), req.Exclude, req.Vehicle, req.Avoid)
	q.SetState(st)
	srcOpts := snapOptions(len(req.Sources), req.SourceRadiuses, req.SourceBearings)
	dstOpts := snapOptions(len(req.Targets), req.TargetRadiuses, req.TargetBearings)
	t, err := matrix.ComputeWith(rc.context(), router, q, points(req.Sources), points(req.Targets), srcOpts, dstOpts)
	if err != nil { // the deadline came while road operations' cells were repaired
		return dst, &failure{kind: KindServiceUnavailable, retryAfter: 1, detail: "the matrix did not finish in time; retry"}
	}
	if fail := swappedPoints(router, st, req, t, srcOpts, dstOpts); fail != nil {
		return dst, fail
	}
	// One allocation for the grids and the places rather than a dozen
	// doublings of the 1 KiB the envelope started with. Cells take up to
	// 11 bytes of durations (a day is 86400.000) and 10 of distances
	// (1000 km is 1000000.0), points about 80 bytes of places: at 18 and 60,
	// the 3M-node synthetic country's 100×100 answers (203 KB, 19 bytes a
	// cell, 77 a point) outgrew the buffer while the places were written
	// and copied it into one twice as large.
	dst = slices.Grow(dst, 64+gridBytesPerCell*len(req.Sources)*len(req.Targets)+80*(len(req.Sources)+len(req.Targets)))
	dst = appendKey(dst, "profile", true)
	dst = appendString(dst, req.Profile)
	dst = appendKey(dst, "durations", true)
	dst = appendGrid(dst, t.Durations, 3)
	dst = appendKey(dst, "distances", true)
	dst = appendGrid(dst, t.Distances, 1)
	dst = appendKey(dst, "operations_applied", true)
	dst = strconv.AppendBool(dst, t.OperationsApplied)
	dst = appendKey(dst, "sources", true)
	dst = appendPlacements(dst, rc, t.Sources)
	dst = appendKey(dst, "targets", true)
	return appendPlacements(dst, rc, t.Targets), nil
}

// swappedPoints refuses the request (400) when a point that could not be
// placed could be with longitude and latitude swapped: a table of nulls
// would answer, and bill, a mistake. Other unplaced points stay null.
func swappedPoints(router *route.Router, st *graph.State, req MatrixRequest, t matrix.Table, srcOpts, dstOpts []snap.Options) *failure {
	var errs []FieldError
	check := func(member string, cs []Coordinate, ps []matrix.Placement, opts []snap.Options) {
		for i, p := range ps {
			if p.Err == nil || len(errs) >= MaxFieldErrors {
				continue
			}
			field := "/" + member + "/" + strconv.Itoa(i)
			if fe, swapped := placeFailure(router, field, route.Point(cs[i]), at(opts, i), st, p.Err); swapped {
				errs = append(errs, fe)
			}
		}
	}
	check("sources", req.Sources, t.Sources, srcOpts)
	check("targets", req.Targets, t.Targets, dstOpts)
	if len(errs) == 0 {
		return nil
	}
	return &failure{kind: KindInvalidRequest, detail: fmt.Sprintf("%d points look like [latitude, longitude]", len(errs)), errs: errs}
}

// appendPlacements writes where each point met the network, null for one
// that could not be placed (its row or column is null too).
func appendPlacements(dst []byte, rc *runContext, ps []matrix.Placement) []byte {
	dst = append(dst, '[')
	for i, p := range ps {
		if i > 0 {
			dst = append(dst, ',')
		}
		if p.Err != nil {
			dst = append(dst, "null"...)
			continue
		}
		dst = appendPlace(dst, rc.rel.Network, p.Result)
	}
	return append(dst, ']')
}

// gridBytesPerCell bounds a cell's share of the two grids for all but
// tables of paths longer than a day or 1000 km: up to 11 bytes of
// durations and 10 of distances.
const gridBytesPerCell = 21

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
