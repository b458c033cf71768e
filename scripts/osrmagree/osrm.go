package main

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/mapsco/maps/pkg/profile"
)

// osrmSpeed approximates OSRM v6.0.0 profiles/car.lua (process_way and lib/way_handlers.lua) for one direction
// of a way: the duration speed in km/h, 0 when car.lua does not drive it. It is a reading aid for the report
// (why a route differs), not a reimplementation: width, length and weight limits, hov, ferries and movable
// bridges are left out.
func osrmSpeed(t map[string]string, forward bool) float64 {
	hw := t["highway"]
	if t["area"] == "yes" || hw == "steps" || hw == "construction" || hw == "proposed" || t["oneway"] == "reversible" ||
		t["impassable"] == "yes" || t["status"] == "impassable" || t["service"] == "emergency_access" || t["proposed"] != "" {
		return 0
	}
	if c := t["construction"]; c != "" && c != "no" && c != "widening" && c != "minor" {
		return 0
	}
	if h, ok := profile.ParseLength(firstOf(t, "maxheight:physical", "maxheight")); ok && h < 2.0 {
		return 0
	}
	access := firstOf(t, "motorcar", "motor_vehicle", "vehicle", "access")
	restrictedOK := osrmRestrictedHighways[hw] && osrmRestricted[access]
	if osrmBlacklist[access] && !restrictedOK {
		return 0
	}
	if !onewayAllows(t, forward) {
		return 0
	}
	speed, ok := osrmClass[hw]
	if !ok {
		if access == "" || osrmBlacklist[access] {
			return 0
		}
		speed = 10 // default_speed, for a whitelisted or unknown access value
	}
	if ms := osrmMaxspeed(firstOf(t, "maxspeed:advisory", "maxspeed", "source:maxspeed", "maxspeed:type")); ms > 0 {
		speed = ms * 0.8 // speed_reduction: replaces the class speed, up or down
	}
	for _, cap := range []float64{osrmSurface.get(t["surface"]), osrmTracktype.get(t["tracktype"]), osrmSmoothness(t["smoothness"])} {
		if cap >= 0 && cap < speed {
			speed = cap
		}
	}
	return speed
}

func firstOf(t map[string]string, keys ...string) string {
	for _, k := range keys {
		if v, ok := t[k]; ok {
			return v
		}
	}
	return ""
}

func onewayAllows(t map[string]string, forward bool) bool {
	o := firstOf(t, "oneway:motorcar", "oneway:motor_vehicle", "oneway:vehicle", "oneway")
	switch o {
	case "-1":
		return !forward
	case "yes", "1", "true":
		return forward
	}
	if o != "no" && (t["highway"] == "motorway" || t["junction"] == "roundabout" || t["junction"] == "circular") {
		return forward
	}
	return true
}

var osrmClass = map[string]float64{"motorway": 90, "motorway_link": 45, "trunk": 85, "trunk_link": 40, "primary": 65,
	"primary_link": 30, "secondary": 55, "secondary_link": 25, "tertiary": 40, "tertiary_link": 20, "unclassified": 25,
	"residential": 25, "living_street": 10, "service": 15}

var osrmBlacklist = map[string]bool{"no": true, "agricultural": true, "forestry": true, "emergency": true, "psv": true,
	"customers": true, "private": true, "delivery": true, "destination": true}

var osrmRestricted = map[string]bool{"private": true, "delivery": true, "destination": true, "customers": true}

var osrmRestrictedHighways = map[string]bool{"motorway": true, "motorway_link": true, "trunk": true, "trunk_link": true,
	"primary": true, "primary_link": true, "secondary": true, "secondary_link": true, "tertiary": true, "tertiary_link": true,
	"residential": true, "living_street": true, "unclassified": true, "service": true}

// surface_speeds; a missing value reads as no cap (-1 from the lookup below is never a cap).
var osrmSurface = withDefault(map[string]float64{"cement": 80, "compacted": 80, "fine_gravel": 80, "paving_stones": 60,
	"metal": 60, "bricks": 60, "grass": 40, "wood": 40, "sett": 40, "grass_paver": 40, "gravel": 40, "unpaved": 40,
	"ground": 40, "dirt": 40, "pebblestone": 40, "tartan": 40, "cobblestone": 30, "clay": 30, "earth": 20, "stone": 20,
	"rocky": 20, "sand": 20, "mud": 10})

var osrmTracktype = withDefault(map[string]float64{"grade1": 60, "grade2": 40, "grade3": 30, "grade4": 25, "grade5": 20})

func osrmSmoothness(v string) float64 {
	m := map[string]float64{"intermediate": 80, "bad": 40, "very_bad": 20, "horrible": 10, "very_horrible": 5, "impassable": 0}
	if s, ok := m[v]; ok {
		return s
	}
	return -1
}

type capTable map[string]float64

func withDefault(m map[string]float64) capTable { return m }

func (c capTable) get(k string) float64 {
	if s, ok := c[k]; ok {
		return s
	}
	return -1
}

var numRE = regexp.MustCompile(`^\s*([0-9.]+)\s*(mph|km/h|kmh)?`)

// osrmMaxspeed is parse_maxspeed: a number (mph converted), else maxspeed_table / maxspeed_table_default by
// the part after "XX:".
func osrmMaxspeed(s string) float64 {
	if s == "" {
		return 0
	}
	if m := numRE.FindStringSubmatch(s); m != nil {
		v, err := strconv.ParseFloat(m[1], 64)
		if err == nil {
			if m[2] == "mph" {
				v *= 1.609
			}
			return v
		}
	}
	s = strings.ToLower(s)
	table := map[string]float64{"es:trunk": 90, "fr:rural": 80, "de:rural": 100, "de:living_street": 7, "ch:rural": 80,
		"ru:urban": 60, "ru:living_street": 20, "none": 140}
	if v, ok := table[s]; ok {
		return v
	}
	if i := strings.Index(s, ":"); i == 2 {
		switch s[3:] {
		case "urban":
			return 50
		case "rural":
			return 90
		case "trunk":
			return 110
		case "motorway":
			return 130
		}
	}
	return 0
}
