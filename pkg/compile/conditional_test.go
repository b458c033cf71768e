package compile_test

import (
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// TestConditionalReport compiles real extracts and checks what mapc reports
// of their conditional tags (docs/conditions.md has the table).
func TestConditionalReport(t *testing.T) {
	for _, c := range []struct {
		extract                 string
		key                     string
		found, parsed, unparsed int64
		ways                    int64
		example                 string
	}{
		// 17 ways: the 2 closed in some states and the 15 destination-only at
		// rush hour (access:conditional=destination @ ..., issue 36; before,
		// destination changed nothing and only the 2 counted).
		{"liechtenstein.osm.pbf", "access:conditional", 19, 17, 2, 17, "15.03. bis 15.09."},
		{"cities/munchen.osm.pbf", "maxspeed:conditional", 7, 21, 0, 21, ""},
	} {
		t.Run(c.extract, func(t *testing.T) {
			rel := compiletest.Extract(t, c.extract)
			r := rel.Manifest.Conditionals
			if r == nil {
				t.Fatal("manifest has no conditionals report")
			}
			t.Logf("%+v", *r)
			if r.Found[c.key] != c.found || r.Parsed != c.parsed || r.Unparsed != c.unparsed || r.Ways != c.ways {
				t.Errorf("found %d %s, parsed %d, unparsed %d, ways %d; want %d, %d, %d, %d",
					r.Found[c.key], c.key, r.Parsed, r.Unparsed, r.Ways, c.found, c.parsed, c.unparsed, c.ways)
			}
			if c.example != "" && (len(r.Examples) == 0 || !strings.Contains(strings.Join(r.Examples, "\n"), c.example)) {
				t.Errorf("examples %q do not show %q", r.Examples, c.example)
			}
			if rel.Manifest.TimeZone != "Europe/Andorra" || rel.Network.Zone.String() != "Europe/Andorra" {
				t.Errorf("time zone %q / %v", rel.Manifest.TimeZone, rel.Network.Zone)
			}
		})
	}
}
