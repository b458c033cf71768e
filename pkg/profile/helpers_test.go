package profile

import (
	"math"
	"testing"
)

const profilesDir = "../../profiles"

// loadAll loads the real profiles/ directory, keyed by name.
func loadAll(t testing.TB) map[string]*Profile {
	t.Helper()
	ps, err := LoadDir(profilesDir)
	if err != nil {
		t.Fatalf("LoadDir(%s): %v", profilesDir, err)
	}
	m := make(map[string]*Profile, len(ps))
	for _, p := range ps {
		m[p.Name] = p
	}
	return m
}

// tags builds a tag map from alternating key, value strings.
func tags(kv ...string) map[string]string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func both(kmh float64) Way {
	return Way{Forward: true, Backward: true, SpeedForward: kmh, SpeedBackward: kmh}
}
func fwd(kmh float64) Way { return Way{Forward: true, SpeedForward: kmh} }
func bwd(kmh float64) Way { return Way{Backward: true, SpeedBackward: kmh} }
func split(f, b float64) Way {
	return Way{Forward: true, Backward: true, SpeedForward: f, SpeedBackward: b}
}
func closeTo(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func sameWay(a, b Way) bool {
	return a.Forward == b.Forward && a.Backward == b.Backward &&
		closeTo(a.SpeedForward, b.SpeedForward) && closeTo(a.SpeedBackward, b.SpeedBackward)
}

// checkWayInvariant is the contract of Way: a speed is positive and finite exactly when the direction is open.
func checkWayInvariant(t testing.TB, name string, in map[string]string, w Way) {
	t.Helper()
	ok := func(open bool, s float64) bool {
		if !open {
			return s == 0
		}
		return s > 0 && !math.IsNaN(s) && !math.IsInf(s, 0)
	}
	if !ok(w.Forward, w.SpeedForward) || !ok(w.Backward, w.SpeedBackward) {
		t.Fatalf("%s.Way(%v) = %+v breaks the speed/direction invariant", name, in, w)
	}
}
