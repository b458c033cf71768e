package profile

import "testing"

// Way, Barrier and Restriction run once per way and node of a country at compile time; they must not allocate.
func TestEvaluationDoesNotAllocate(t *testing.T) {
	ps := loadAll(t)
	ways := []map[string]string{
		tags("highway", "residential", "oneway", "yes", "maxspeed", "30 mph", "surface", "gravel"),
		tags("highway", "footway", "bicycle", "destination;no", "motorcycle", "yes"),
		tags("highway", "primary", "maxspeed:forward", "AD:urban", "maxheight", `12'6"`, "maxweight", "7500 kg"),
		tags("route", "ferry", "oneway", "-1"),
	}
	nodes := []map[string]string{tags("barrier", "gate", "access", "private"), tags("barrier", "bollard", "maxheight", "3")}
	rels := []map[string]string{
		tags("type", "restriction", "restriction", "no_left_turn", "except", "psv; bicycle"),
		tags("type", "restriction", "restriction:conditional", "no_u_turn @ (Mo-Fr)"),
	}
	for _, name := range Names() {
		p := ps[name]
		allocs := testing.AllocsPerRun(100, func() {
			for _, w := range ways {
				p.Way(w)
			}
			for _, n := range nodes {
				p.Barrier(n)
			}
			for _, r := range rels {
				p.Restriction(r)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per evaluation round, want 0", name, allocs)
		}
	}
}

func BenchmarkWay(b *testing.B) {
	p := loadAll(b)["bicycle"]
	in := tags("highway", "residential", "oneway", "yes", "maxspeed", "30", "surface", "asphalt", "name", "Carrer Major",
		"lit", "yes", "sidewalk", "both")
	b.ReportAllocs()
	for b.Loop() {
		p.Way(in)
	}
}

func BenchmarkBarrier(b *testing.B) {
	p := loadAll(b)["car"]
	in := tags("barrier", "lift_gate", "access", "destination")
	b.ReportAllocs()
	for b.Loop() {
		p.Barrier(in)
	}
}
