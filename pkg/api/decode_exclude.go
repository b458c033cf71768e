package api

import (
	"strings"

	"github.com/mapsco/maps/pkg/route"
)

// excludeWant lists the kinds of road a request may exclude, for messages.
var excludeWant = `one of "` + strings.Join(route.ExcludeNames, `", "`) + `"`

// exclude reads the kinds of road a route must not use (directions, matrix and isochrone): an array of
// distinct names from route.ExcludeNames, empty for none.
func (d *decoder) exclude() route.Exclude {
	p := memberPointer("exclude")
	if !d.enterArray(p, "an array of kinds of road, each "+excludeWant) {
		return 0
	}
	var x route.Exclude
	for n, first := 0, true; d.s.Next(']', first); n, first = n+1, false {
		ip := p.Index(n)
		s, present, ok := d.stringValue(ip, "a string, "+excludeWant)
		if !present || !ok {
			continue
		}
		k, known := route.ParseExclude(string(s))
		switch {
		case !known:
			d.errs.addf(ip, "unknown kind of road %s; must be %s", quoteValue(s), excludeWant)
		case x&k != 0:
			d.errs.addf(ip, "repeats %s", quoteValue(s))
		}
		x |= k
	}
	return x
}
