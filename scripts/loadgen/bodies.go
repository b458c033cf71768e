package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// makeBodies pre-encodes the request bodies so that the measured loop only
// sends bytes. Directions bodies take c.waypoints consecutive points (2 by
// default), matrix bodies 2×size (size with -same: the targets are the
// sources), elevation bodies size (at least 1), isochrone bodies one (the
// origin, with one contour of c.minutes);
// points wrap around when there are fewer than needed. With c.osrm each is
// instead the request URI that asks osrm-routed the same thing (osrmURI).
func makeBodies(pts [][2]float64, c config) [][]byte {
	c.waypoints = max(c.waypoints, 2)
	bodies := make([][]byte, c.bodies)
	next := 0
	take := func(n int) [][2]float64 {
		out := make([][2]float64, n)
		for i := range out {
			out[i] = pts[next%len(pts)]
			next++
		}
		return out
	}
	for i := range bodies {
		switch {
		case c.osrm:
			bodies[i] = osrmURI(take(osrmPoints(c)), c)
		case c.tiles != "":
			bodies[i] = tileURI(take(1)[0], c.tileZooms[i%len(c.tileZooms)])
		case c.elevation:
			b := append([]byte(`{"coordinates":`), appendPoints(nil, take(max(c.size, 1)))...)
			bodies[i] = append(b, '}')
		case c.isochrone:
			b := append([]byte(`{"profile":"`+c.profile+`","origin":[`), appendLonLat(nil, take(1)[0])...)
			b = append(b, `],"contours":[{"time_minutes":`...)
			b = strconv.AppendInt(b, int64(c.minutes), 10)
			bodies[i] = append(b, `}]}`...)
		default:
			bodies[i] = mapdBody(take, c)
		}
	}
	return bodies
}

// mapdBody is one directions or matrix body of mapd's API.
func mapdBody(take func(n int) [][2]float64, c config) []byte {
	b := []byte(`{"profile":"` + c.profile + `",`)
	if c.size == 0 {
		if c.steps {
			b = append(b, `"include_steps":true,`...)
		}
		if c.alts >= 0 {
			b = append(b, `"alternatives":`...)
			b = strconv.AppendInt(b, int64(c.alts), 10)
			b = append(b, ',')
		}
		b = append(b, `"coordinates":`...)
		b = appendPoints(b, take(c.waypoints))
	} else {
		sources := appendPoints(nil, take(c.size))
		targets := sources
		if !c.same {
			targets = appendPoints(nil, take(c.size))
		}
		b = append(b, `"sources":`...)
		b = append(b, sources...)
		b = append(b, `,"targets":`...)
		b = append(b, targets...)
	}
	return append(b, '}')
}

// appendPoints writes points as a JSON array of [lon, lat] pairs.
func appendPoints(b []byte, pts [][2]float64) []byte {
	b = append(b, '[')
	for i, p := range pts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendLonLat(append(b, '['), p), ']')
	}
	return append(b, ']')
}

// appendLonLat writes a point as "lon,lat" to 7 decimals, as both mapd's
// bodies and OSRM's URIs take it.
func appendLonLat(b []byte, p [2]float64) []byte {
	b = strconv.AppendFloat(b, p[0], 'f', 7, 64)
	b = append(b, ',')
	return strconv.AppendFloat(b, p[1], 'f', 7, 64)
}

// dumpBodies writes bodies to path, one per line, so that another load
// generator (wrk, with scripts/wrk-bodies.lua) sends exactly what loadgen
// would.
func dumpBodies(path string, bodies [][]byte) error {
	var b bytes.Buffer
	for _, body := range bodies {
		b.Write(body)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("-dump: %w", err)
	}
	return nil
}
