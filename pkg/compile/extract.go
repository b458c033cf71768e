package compile

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/osm"
	"github.com/mapsco/maps/pkg/profile"
)

// extract reads the PBF twice: ways first, keeping those some profile may
// use, then the nodes those ways need.
func extract(ctx context.Context, o Options, profiles []*profile.Profile) (graph.Input, map[string]int64, error) {
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
		if rs, ok := evaluateRestriction(r, profiles); ok {
			in.Restrictions = append(in.Restrictions, rs)
		}
		return nil
	}, Way: func(w *osm.Way) error {
		o.Progress.Add(1)
		stats["osm_ways"]++
		gw, ok := evaluateWay(w, profiles)
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
		return in, nil, fmt.Errorf("compile: read ways: %w", err)
	}
	stats["routable_ways"] = int64(len(in.Ways))
	o.Log.Info("ways read", "ways", stats["osm_ways"], "routable", len(in.Ways), "elapsed", since(t))

	t = time.Now()
	coords := make(map[int64][2]int32, len(needed))
	barriers := map[int64]uint32{}
	o.Progress.Start("nodes", 0)
	err = osm.Scan(ctx, o.OSM, osm.Handlers{Node: func(n *osm.Node) error {
		o.Progress.Add(1)
		if _, ok := needed[n.ID]; !ok {
			return nil
		}
		coords[n.ID] = [2]int32{geo.Fixed(n.Lon), geo.Fixed(n.Lat)}
		if mask := barrierMask(n.Tags, profiles); mask != 0 {
			barriers[n.ID] = mask
		}
		return nil
	}})
	o.Progress.Done()
	if err != nil {
		return in, nil, fmt.Errorf("compile: read nodes: %w", err)
	}
	stats["missing_nodes"] = int64(len(needed) - len(coords))
	stats["barrier_nodes"] = int64(len(barriers))
	o.Log.Info("nodes read", "needed", len(needed), "found", len(coords), "barriers", len(barriers), "elapsed", since(t))
	in.Coord = func(id int64) (int32, int32, bool) {
		c, ok := coords[id]
		return c[0], c[1], ok
	}
	in.Barrier = func(id int64) uint32 { return barriers[id] }
	return in, stats, nil
}

// evaluateWay asks every profile about a way; ok is false when none may use it.
func evaluateWay(w *osm.Way, profiles []*profile.Profile) (graph.Way, bool) {
	if len(w.NodeIDs) < 2 || (w.Tags["highway"] == "" && w.Tags["route"] != "ferry") {
		return graph.Way{}, false
	}
	speeds := make([][2]float32, len(profiles))
	usable := false
	for i, p := range profiles {
		r := p.Way(w.Tags)
		if r.Forward {
			speeds[i][0] = float32(r.SpeedForward)
		}
		if r.Backward {
			speeds[i][1] = float32(r.SpeedBackward)
		}
		usable = usable || r.Forward || r.Backward
	}
	if !usable {
		return graph.Way{}, false
	}
	return graph.Way{ID: w.ID, Nodes: w.NodeIDs, Name: w.Tags["name"], Ref: w.Tags["ref"], Class: wayClass(w.Tags),
		Flags: wayFlags(w.Tags), Speeds: speeds}, true
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
	return f
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
// profiles it binds; ok is false when it binds none or is malformed.
func evaluateRestriction(r *osm.Relation, profiles []*profile.Profile) (graph.Restriction, bool) {
	if r.Tags["type"] != "restriction" {
		return graph.Restriction{}, false
	}
	rs := graph.Restriction{Relation: r.ID}
	kind := ""
	for i, p := range profiles {
		if k, applies := p.Restriction(r.Tags); applies && k != "" {
			rs.Profiles |= 1 << i
			kind = k
		}
	}
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
	rs.Only = strings.HasPrefix(kind, "only_")
	ok := rs.Profiles != 0 && len(rs.From) > 0 && len(rs.To) > 0 && len(rs.Via) > 0
	return rs, ok
}
