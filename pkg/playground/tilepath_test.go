package playground

import (
	"fmt"
	"testing"

	"github.com/paulmach/orb/maptile"
)

func TestParseTilePath(t *testing.T) {
	cases := []struct {
		in   string
		want maptile.Tile
		ok   bool
	}{
		{"14/8261/6050.mvt", maptile.New(8261, 6050, 14), true},
		{"0/0/0.mvt", maptile.New(0, 0, 0), true},
		{"22/4194303/4194303.mvt", maptile.New(4194303, 4194303, 22), true}, // parsed; the encoder refuses the zoom
		{"14/8261/6050", maptile.Tile{}, false},
		{"14/8261/6050.png", maptile.Tile{}, false},
		{"14/08261/6050.mvt", maptile.Tile{}, false},
		{"14/-1/6050.mvt", maptile.Tile{}, false},
		{"14/+1/6050.mvt", maptile.Tile{}, false},
		{"14/8261.mvt", maptile.Tile{}, false},
		{"14/8261/6050/1.mvt", maptile.Tile{}, false},
		{"14//6050.mvt", maptile.Tile{}, false},
		{"1/4294967296/0.mvt", maptile.Tile{}, false},
		{"1/99999999999/0.mvt", maptile.Tile{}, false},
		{"tiles.json", maptile.Tile{}, false},
		{"", maptile.Tile{}, false},
	}
	for _, c := range cases {
		got, err := parseTilePath(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseTilePath(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// FuzzParseTilePath: any path either fails or names the tile whose
// canonical path it is.
func FuzzParseTilePath(f *testing.F) {
	for _, s := range []string{"14/8261/6050.mvt", "0/0/0.mvt", "01/2/3.mvt", "1/2/3.pbf", "9/9/9/.mvt", "4294967295/1/1.mvt"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		tile, err := parseTilePath(p)
		if err != nil {
			return
		}
		if canon := fmt.Sprintf("%d/%d/%d.mvt", tile.Z, tile.X, tile.Y); canon != p {
			t.Fatalf("%q parsed as %v, whose path is %q", p, tile, canon)
		}
	})
}
