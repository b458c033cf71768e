package compare

import (
	"maps"
	"slices"
	"strings"

	"github.com/mapsco/maps/pkg/release"
)

// CountRow is one of the network's counts from both manifests.
type CountRow struct {
	Name string `json:"name"`
	Old  *int64 `json:"old"` // null: not in that manifest
	New  *int64 `json:"new"`
	// Change is (new-old)/old; null when either is missing or old is 0.
	Change *Num `json:"change"`
	// Gated counts are the ones the count_change_fraction threshold
	// applies to: the size of the network and of each profile's graph.
	Gated bool `json:"gated"`
}

// ModelRow is one profile's speed model in both manifests ("" when the
// profile is missing).
type ModelRow struct {
	Profile string `json:"profile"`
	Old     string `json:"old"`
	New     string `json:"new"`
	Changed bool   `json:"changed"`
}

// gatedCount reports whether a manifest statistic measures the network's
// size (nodes, segments, routable ways, each profile's arcs and turns).
// Restriction and conditional counts are small numbers whose relative
// change means little; timings (*_ms) change with every build.
func gatedCount(name string) bool {
	switch name {
	case "nodes", "segments", "routable_ways":
		return true
	}
	return strings.HasPrefix(name, "arcs.") || strings.HasPrefix(name, "turns.")
}

// compareCounts lines up every statistic of both manifests (timings
// excepted) and the conditional tags' counts.
func compareCounts(oldM, newM *release.Manifest) []CountRow {
	o, n := countsOf(oldM), countsOf(newM)
	union := maps.Clone(o)
	maps.Copy(union, n)
	names := slices.Sorted(maps.Keys(union))
	rows := make([]CountRow, 0, len(names))
	for _, name := range names {
		r := CountRow{Name: name, Gated: gatedCount(name)}
		if v, ok := o[name]; ok {
			r.Old = &v
		}
		if v, ok := n[name]; ok {
			r.New = &v
		}
		if r.Old != nil && r.New != nil && *r.Old != 0 {
			r.Change = new(Num(float64(*r.New-*r.Old) / float64(*r.Old)))
		}
		rows = append(rows, r)
	}
	return rows
}

func countsOf(m *release.Manifest) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m.Stats {
		if !strings.HasSuffix(k, "_ms") {
			out[k] = v
		}
	}
	if c := m.Conditionals; c != nil {
		out["conditionals.parsed"] = c.Parsed
		out["conditionals.unparsed"] = c.Unparsed
		out["conditionals.ways"] = c.Ways
		out["conditionals.restrictions"] = c.Restrictions
	}
	return out
}

// compareModels lines up the speed model versions of every profile in
// either manifest, old's order first.
func compareModels(oldM, newM *release.Manifest) []ModelRow {
	var rows []ModelRow
	seen := map[string]bool{}
	for _, m := range []*release.Manifest{oldM, newM} {
		for _, p := range m.Profiles {
			if seen[p.Name] {
				continue
			}
			seen[p.Name] = true
			r := ModelRow{Profile: p.Name}
			if q := oldM.Profile(p.Name); q != nil {
				r.Old = q.SpeedModelVersion
			}
			if q := newM.Profile(p.Name); q != nil {
				r.New = q.SpeedModelVersion
			}
			r.Changed = r.Old != r.New
			rows = append(rows, r)
		}
	}
	return rows
}
