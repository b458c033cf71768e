package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// makeBodies pre-encodes the request bodies so that the measured loop only
// sends bytes. Directions bodies take c.waypoints consecutive points (2 by
// default), matrix bodies 2×size, elevation bodies size (at least 1);
// points wrap around when there are fewer than needed.
func makeBodies(pts [][2]float64, c config) [][]byte {
	c.waypoints = max(c.waypoints, 2)
	bodies := make([][]byte, c.bodies)
	next := 0
	take := func(b []byte, n int) []byte {
		b = append(b, '[')
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			p := pts[next%len(pts)]
			next++
			b = append(b, '[')
			b = strconv.AppendFloat(b, p[0], 'f', 7, 64)
			b = append(b, ',')
			b = strconv.AppendFloat(b, p[1], 'f', 7, 64)
			b = append(b, ']')
		}
		return append(b, ']')
	}
	for i := range bodies {
		if c.elevation {
			b := append([]byte(`{"coordinates":`), take(nil, max(c.size, 1))...)
			bodies[i] = append(b, '}')
			continue
		}
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
			b = take(b, c.waypoints)
		} else {
			b = append(b, `"sources":`...)
			b = take(b, c.size)
			b = append(b, `,"targets":`...)
			b = take(b, c.size)
		}
		bodies[i] = append(b, '}')
	}
	return bodies
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
