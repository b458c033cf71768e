package compile

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/osm"
	"github.com/mapsco/maps/pkg/places"
	"github.com/mapsco/maps/pkg/profile"
)

// extract reads the PBF twice: ways first, keeping those some profile may
// use, then the nodes those ways need and the named place=* nodes (for the
// place index), which it returns apart.
func extract(ctx context.Context, o Options, profiles []*profile.Profile, cond *conditions) (graph.Input, []places.Entry, map[string]int64, error) {
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = p.Name
	}
	stats := map[string]int64{}
	in := graph.Input{Profiles: names}
	for _, p := range profiles {
		t := p.Turns
		in.Turns = append(in.Turns, graph.TurnModel{TurnS: t.TurnS, CrossBias: t.CrossBias, UTurnS: t.UTurnS, NoUTurns: t.NoUTurns})
	}
	needed := map[int64]struct{}{}
	t := time.Now()
	o.Progress.Start("ways", 0)
	err := osm.Scan(ctx, o.OSM, osm.Handlers{Relation: func(r *osm.Relation) error {
		in.Restrictions = append(in.Restrictions, evaluateRestriction(r, profiles, cond)...)
		return nil
	}, Way: func(w *osm.Way) error {
		o.Progress.Add(1)
		stats["osm_ways"]++
		gw, ok := evaluateWay(w, profiles, cond)
		if !ok {
			return nil
		}
		in.Ways = append(in.Ways, gw)
		for _, id := range w.NodeIDs {
			needed[id] = struct{}{}
		}
		return nil
	}})
	o.Progress.Done()
	if err != nil {
		return in, nil, nil, fmt.Errorf("compile: read ways: %w", err)
	}
	stats["routable_ways"] = int64(len(in.Ways))
	o.Log.Info("ways read", "ways", stats["osm_ways"], "routable", len(in.Ways), "elapsed", since(t))

	t = time.Now()
	coords := make(map[int64][2]int32, len(needed))
	barriers := map[int64]uint32{}
	nodeLimits := map[int64]graph.Limits{}
	var named []places.Entry
	o.Progress.Start("nodes", 0)
	err = osm.Scan(ctx, o.OSM, osm.Handlers{Node: func(n *osm.Node) error {
		o.Progress.Add(1)
		if kind, ok := places.PlaceKind(n.Tags["place"]); ok && n.Tags["name"] != "" {
			named = append(named, places.Entry{Name: n.Tags["name"], Kind: kind, Lon: n.Lon, Lat: n.Lat})
		}
		if _, ok := needed[n.ID]; !ok {
			return nil
		}
		coords[n.ID] = [2]int32{geo.Fixed(n.Lon), geo.Fixed(n.Lat)}
		if mask := barrierMask(n.Tags, profiles); mask != 0 {
			barriers[n.ID] = mask
		}
		if l := barrierLimits(n.Tags); !l.Empty() {
			nodeLimits[n.ID] = l
		}
		return nil
	}})
	o.Progress.Done()
	if err != nil {
		return in, nil, nil, fmt.Errorf("compile: read nodes: %w", err)
	}
	stats["missing_nodes"] = int64(len(needed) - len(coords))
	stats["barrier_nodes"] = int64(len(barriers))
	stats["place_nodes"] = int64(len(named))
	o.Log.Info("nodes read", "needed", len(needed), "found", len(coords), "barriers", len(barriers), "elapsed", since(t))
	in.Coord = func(id int64) (int32, int32, bool) {
		c, ok := coords[id]
		return c[0], c[1], ok
	}
	in.Barrier = func(id int64) uint32 { return barriers[id] }
	in.NodeLimits = func(id int64) graph.Limits { return nodeLimits[id] }
	in.Vehicles = vehicles(profiles)
	stats["limited_barriers"] = int64(len(nodeLimits))
	return in, named, stats, nil
}

// evaluateWay asks every profile about a way, in every state of its time
// conditions; ok is false when none may use it at any time.
func evaluateWay(w *osm.Way, profiles []*profile.Profile, cond *conditions) (graph.Way, bool) {
	if len(w.NodeIDs) < 2 || (w.Tags["highway"] == "" && w.Tags["route"] != "ferry") {
		return graph.Way{}, false
	}
	speeds, dest, wc, usable := cond.waySpeeds(w.ID, w.Tags, profiles)
	if !usable {
		return graph.Way{}, false
	}
	return graph.Way{ID: w.ID, Nodes: w.NodeIDs, Name: w.Tags["name"], Ref: w.Tags["ref"], Class: wayClass(w.Tags),
		Flags: wayFlags(w.Tags), Limits: storedLimits(profile.PostedLimits(w.Tags)), Hiking: hikingGrade(w.Tags["sac_scale"]),
		Signpost: graph.Signpost{Destination: w.Tags["destination"],
			DestinationRef: w.Tags["destination:ref"], JunctionRef: w.Tags["junction:ref"],
			Forward: w.Tags["destination:forward"], Backward: w.Tags["destination:backward"]},
		Speeds: speeds, Destination: dest, Cond: wc}, true
}

func wayClass(tags map[string]string) string {
	if h := tags["highway"]; h != "" {
		return h
	}
	return "ferry"
}

func wayFlags(tags map[string]string) uint8 {
	var f uint8
	if b := tags["bridge"]; b != "" && b != "no" {
		f |= graph.FlagBridge
	}
	if t := tags["tunnel"]; t != "" && t != "no" {
		f |= graph.FlagTunnel
	}
	if j := tags["junction"]; j == "roundabout" || j == "circular" {
		f |= graph.FlagRoundabout
	}
	if h := tags["highway"]; len(h) > 5 && h[len(h)-5:] == "_link" {
		f |= graph.FlagLink
	}
	if tags["toll"] == "yes" {
		f |= graph.FlagToll
	}
	if tags["route"] == "ferry" {
		f |= graph.FlagFerry
	}
	if unpaved(tags) {
		f |= graph.FlagUnpaved
	}
	return f
}

// sacScale are the values of OSM sac_scale in grade order, by name and by
// the SAC's own T1 to T6 (both are in use).
var sacScale = [...][2]string{{"hiking", "T1"}, {"mountain_hiking", "T2"}, {"demanding_mountain_hiking", "T3"},
	{"alpine_hiking", "T4"}, {"demanding_alpine_hiking", "T5"}, {"difficult_alpine_hiking", "T6"}}

// hikingGrade is a sac_scale value's grade, 1 (T1) to 6 (T6); 0 for no
// value or one the scale does not have (graph.Network.SegHiking).
func hikingGrade(v string) uint8 {
	for i, names := range sacScale {
		if v == names[0] || v == names[1] {
			return uint8(i + 1)
		}
	}
	return 0
}

// unpavedSurfaces are the surface values of loose or natural ground
// (OSM wiki, Key:surface, "unpaved" group).
var unpavedSurfaces = map[string]bool{
	"unpaved": true, "compacted": true, "fine_gravel": true, "gravel": true, "shells": true, "rock": true,
	"pebblestone": true, "ground": true, "dirt": true, "earth": true, "grass": true, "grass_paver": true,
	"mud": true, "sand": true, "woodchips": true, "snow": true, "ice": true, "salt": true,
}

// unpaved reports whether a way's surface is unpaved: by its surface tag,
// or, without one, a track of grade2 or worse (grade1 is paved or heavily
// compacted, by the tag's definition).
func unpaved(tags map[string]string) bool {
	if s, ok := tags["surface"]; ok {
		return unpavedSurfaces[s]
	}
	if tags["highway"] != "track" {
		return false
	}
	switch tags["tracktype"] {
	case "grade2", "grade3", "grade4", "grade5":
		return true
	}
	return false
}

func barrierMask(tags map[string]string, profiles []*profile.Profile) uint32 {
	if len(tags) == 0 {
		return 0
	}
	var mask uint32
	for i, p := range profiles {
		if p.Barrier(tags) {
			mask |= 1 << i
		}
	}
	return mask
}

// evaluateRestriction reads a type=restriction relation's members and the
// profiles it binds: one restriction, or for a time-limited relation one per
// kind and set of states; none when it binds no profile or is malformed.
func evaluateRestriction(r *osm.Relation, profiles []*profile.Profile, cond *conditions) []graph.Restriction {
	if r.Tags["type"] != "restriction" && !strings.HasPrefix(r.Tags["type"], "restriction:") {
		return nil
	}
	rs := restrictionMembers(r)
	if len(rs.From) == 0 || len(rs.To) == 0 || len(rs.Via) == 0 {
		return nil
	}
	if rules, timed := cond.restrictionRules(r.ID, r.Tags); timed {
		out := cond.conditionalRestrictions(rs, r.Tags, rules, profiles)
		for _, c := range out {
			if len(c.Schedules) > 0 {
				cond.report.Restrictions++
			}
		}
		return out
	}
	kind := ""
	for i, p := range profiles {
		if k, applies := p.Restriction(r.Tags); applies && k != "" {
			rs.Profiles |= 1 << i
			kind = k
		}
	}
	rs.Only = strings.HasPrefix(kind, "only_")
	if rs.Profiles == 0 {
		return nil
	}
	return []graph.Restriction{rs}
}

// restrictionMembers reads a restriction relation's from, via and to.
func restrictionMembers(r *osm.Relation) graph.Restriction {
	rs := graph.Restriction{Relation: r.ID}
	for _, m := range r.Members {
		switch {
		case m.Role == "from" && m.Type == osm.WayMember:
			rs.From = append(rs.From, m.ID)
		case m.Role == "to" && m.Type == osm.WayMember:
			rs.To = append(rs.To, m.ID)
		case m.Role == "via" && m.Type == osm.NodeMember:
			rs.Via = append(rs.Via, m.ID)
		case m.Role == "via" && m.Type == osm.WayMember:
			rs.Via = append(rs.Via, m.ID)
			rs.ViaWays = true
		}
	}
	return rs
}
