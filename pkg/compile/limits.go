package compile

import (
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/profile"
)

// Vehicle limits compiled into the release (issue 35): the limits posted
// on ways and barrier nodes, read by the profile's own rules
// (profile.PostedLimits), are kept per arc for the profiles that have a
// vehicle, so that a request's vehicle is decided at query time
// (graph/limits.go, route/vehicle.go).

// storedLimits converts limits to the graph's units.
func storedLimits(l profile.Limits) graph.Limits {
	return graph.Limits{Height: graph.Centimetres(l.HeightM), Width: graph.Centimetres(l.WidthM),
		Length: graph.Centimetres(l.LengthM), Weight: graph.TensOfKilograms(l.WeightT),
		AxleLoad: graph.TensOfKilograms(l.AxleLoadT), NoHazmat: l.NoHazmat}
}

// barrierLimits are a node's limits when it is a barrier: as in
// Profile.Barrier, only barrier=* nodes stop a vehicle.
func barrierLimits(tags map[string]string) graph.Limits {
	if tags["barrier"] == "" {
		return graph.Limits{}
	}
	return storedLimits(profile.PostedLimits(tags))
}

// vehicles is, per profile, the vehicle it was compiled for, nil for a
// profile without one (its arcs keep no limits).
func vehicles(profiles []*profile.Profile) []*graph.Vehicle {
	out := make([]*graph.Vehicle, len(profiles))
	for i, p := range profiles {
		v := p.Vehicle
		if v == (profile.VehicleSize{}) {
			continue
		}
		out[i] = &graph.Vehicle{Height: graph.Centimetres(v.HeightM), Width: graph.Centimetres(v.WidthM),
			Length: graph.Centimetres(v.LengthM), Weight: graph.TensOfKilograms(v.WeightT)}
	}
	return out
}
