package profile

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseSpeed: any mapper's text either parses into the documented range or is rejected; never NaN, never a
// panic. Length and weight share the number reader, so they ride along.
func FuzzParseSpeed(f *testing.F) {
	for _, s := range []string{"50", "30 mph", "7,5", `12'6"`, "7500 kg", "none", "", "9999999999", "1.", "٣٠"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, ok := ParseSpeed(s); ok && (math.IsNaN(v) || v < 1 || v > 400) {
			t.Fatalf("ParseSpeed(%q) = %v", s, v)
		}
		if v, ok := ParseLength(s); ok && (math.IsNaN(v) || v <= 0 || v > maxSaneSizeM) {
			t.Fatalf("ParseLength(%q) = %v", s, v)
		}
		if v, ok := ParseWeight(s); ok && (math.IsNaN(v) || v <= 0 || v > maxSaneWeightT) {
			t.Fatalf("ParseWeight(%q) = %v", s, v)
		}
	})
}

// FuzzWay feeds arbitrary values for the tags the profiles read and checks the Way contract on every profile.
func FuzzWay(f *testing.F) {
	ps := loadAll(f)
	f.Add("residential", "yes", "50", "private", "gravel", "roundabout", "3.5")
	f.Add("footway", "-1", "walk", "dismount", "grade3", "", `12'6"`)
	f.Add("path", "reversible", "AD:urban", "destination;no", "scree", "circular", "default")
	f.Fuzz(func(t *testing.T, highway, oneway, maxspeed, access, surface, junction, limit string) {
		in := map[string]string{
			"highway": highway, "oneway": oneway, "maxspeed": maxspeed, "maxspeed:backward": maxspeed,
			"access": access, "bicycle": access, "motorcycle": access, "surface": surface, "tracktype": surface,
			"junction": junction, "maxheight": limit, "maxweight": limit, "barrier": highway,
			"type": "restriction", "restriction": highway, "except": access,
		}
		for _, name := range Names() {
			p := ps[name]
			checkWayInvariant(t, name, in, p.Way(in))
			p.Barrier(in)
			p.Restriction(in)
		}
	})
}

// FuzzParse: the loader never panics on arbitrary bytes, and whatever it accepts obeys the Way contract.
func FuzzParse(f *testing.F) {
	for _, name := range Names() {
		data, err := os.ReadFile(filepath.Join(profilesDir, name+".json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"name":"car"}`))
	probe := []map[string]string{
		tags("highway", "residential"), tags("highway", "track", "surface", "gravel", "maxspeed", "10"),
		tags("highway", "footway", "oneway", "yes"), tags("route", "ferry"),
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data, "fuzz.json")
		if err != nil {
			return
		}
		for _, in := range probe {
			checkWayInvariant(t, p.Name, in, p.Way(in))
		}
	})
}
