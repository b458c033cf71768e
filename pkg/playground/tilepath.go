package playground

import (
	"errors"
	"strconv"
	"strings"

	"github.com/paulmach/orb/maptile"
)

// errTilePath means a path under TilesPrefix names no tile.
var errTilePath = errors.New("want /tiles/Z/X/Y.mvt with Z, X and Y whole numbers without leading zeros")

// parseTilePath reads "Z/X/Y.mvt", the path after TilesPrefix. Whether the
// tile exists at that zoom is the encoder's to say.
func parseTilePath(p string) (maptile.Tile, error) {
	rest, ok := strings.CutSuffix(p, ".mvt")
	if !ok {
		return maptile.Tile{}, errTilePath
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 3 {
		return maptile.Tile{}, errTilePath
	}
	var n [3]uint32
	for i, s := range parts {
		// At most 10 digits, and a canonical form: "007" is not a tile,
		// so that every tile has one URL and one cache entry.
		if s == "" || len(s) > 10 || (len(s) > 1 && s[0] == '0') || strings.Trim(s, "0123456789") != "" {
			return maptile.Tile{}, errTilePath
		}
		v, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return maptile.Tile{}, errTilePath
		}
		n[i] = uint32(v)
	}
	return maptile.New(n[1], n[2], maptile.Zoom(n[0])), nil
}
