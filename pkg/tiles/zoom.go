package tiles

import "strings"

// minZoomByClass is the first zoom that draws each road class, chosen as
// general-purpose web maps do: at zoom 8 a country's trunk roads, at 12 a
// town's streets, at 14 every path. A link (motorway_link, ...) appears with
// its road.
var minZoomByClass = map[string]uint8{
	"motorway":      0,
	"trunk":         5,
	"primary":       7,
	"secondary":     9,
	"tertiary":      10,
	"unclassified":  11,
	"residential":   12,
	"living_street": 12,
	"road":          12,
	"busway":        12,
	"service":       13,
	"pedestrian":    13,
	"track":         13,
	"footway":       14,
	"path":          14,
	"cycleway":      14,
	"bridleway":     14,
	"steps":         14,
	"corridor":      14,
}

// MinZoom returns the first zoom that draws a road of class c (an OSM
// highway value); unknown classes wait for MaxZoom.
func MinZoom(c string) uint8 {
	if z, ok := minZoomByClass[strings.TrimSuffix(c, "_link")]; ok {
		return z
	}
	return MaxZoom
}
