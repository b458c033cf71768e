package route

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/mapsco/maps/pkg/graph"
)

// Vehicle is a request's vehicle for a profile that has one (the truck,
// issue 35): sizes in metres and tonnes, 0 for a size it does not state,
// which is then the profile's own (profiles/truck.json: 4.0 m high,
// 2.55 m wide, 12 m long, 18 t; axle load not checked; no dangerous
// goods). The graph was compiled for the profile's vehicle, so roads and
// barriers below it have no arc; the limits it fits under are kept per arc
// (graph/limits.go), and a vehicle larger in some size has the arcs whose
// limit it exceeds closed for its request only, in the overlay exclusions
// use (exclude.go): the hierarchy still answers and routes are repaired
// exactly. A vehicle smaller than the profile's routes as the profile's
// does: an overlay can only close arcs or make them dearer, never add a
// road the graph lacks (see profiles/README.md, "Truck").
type Vehicle struct {
	HeightM, WidthM, LengthM, WeightT, AxleLoadT float64
	Hazmat                                       bool // carries dangerous goods: hazmat=no roads refuse it
}

// IsZero reports whether v states nothing: the profile's own vehicle.
func (v Vehicle) IsZero() bool { return v == Vehicle{} }

// stored is v in the graph's units.
func (v Vehicle) stored() graph.Vehicle {
	return graph.Vehicle{Height: graph.Centimetres(v.HeightM), Width: graph.Centimetres(v.WidthM),
		Length: graph.Centimetres(v.LengthM), Weight: graph.TensOfKilograms(v.WeightT),
		AxleLoad: graph.TensOfKilograms(v.AxleLoadT), Hazmat: v.Hazmat}
}

// Phrase names what v states, for messages: "4.4 m high, 40 t".
func (v Vehicle) Phrase() string {
	var parts []string
	add := func(x float64, unit string) {
		if x > 0 {
			parts = append(parts, strconv.FormatFloat(x, 'f', -1, 64)+unit)
		}
	}
	add(v.HeightM, " m high")
	add(v.WidthM, " m wide")
	add(v.LengthM, " m long")
	add(v.WeightT, " t")
	add(v.AxleLoadT, " t per axle")
	if v.Hazmat {
		parts = append(parts, "carrying dangerous goods")
	}
	return strings.Join(parts, ", ")
}

// vehicleClosing is what a vehicle closes on one router's graph: the arcs
// and a key naming that set, under which its overlay is kept (vehicles
// that close the same arcs share one).
type vehicleClosing struct {
	arcs []uint32
	key  string
}

// closingFor returns the arcs v is refused, nil when it is refused none
// (the profile's own vehicle, or any smaller one). It reads the graph's
// limit records, a few per thousand arcs.
func (r *Router) closingFor(v Vehicle) *vehicleClosing {
	if v.IsZero() {
		return nil
	}
	arcs := r.g.ArcsRefusing(v.stored())
	if len(arcs) == 0 {
		return nil
	}
	h := sha256.New()
	var b [4]byte
	for _, a := range arcs {
		binary.LittleEndian.PutUint32(b[:], a)
		h.Write(b[:])
	}
	return &vehicleClosing{arcs: arcs, key: hex.EncodeToString(h.Sum(nil)[:16])}
}
