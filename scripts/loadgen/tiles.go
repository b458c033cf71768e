package main

import (
	"fmt"
	"math"
)

// tileURI is the GET request URI of the map tile (mapd --playground's
// /tiles/Z/X/Y.mvt) holding p at zoom z: the flood of free, unauthenticated
// traffic of issue 34 item 4.
func tileURI(p [2]float64, z int) []byte {
	n := math.Exp2(float64(z))
	lat := p[1] * math.Pi / 180
	x := int((p[0] + 180) / 360 * n)
	y := int((1 - math.Log(math.Tan(lat)+1/math.Cos(lat))/math.Pi) / 2 * n)
	return fmt.Appendf(nil, "/tiles/%d/%d/%d.mvt", z, x, y)
}
