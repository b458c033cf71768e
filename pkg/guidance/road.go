package guidance

import "strings"

// road is how a step names the road it follows: its name, its reference
// (e.g. "CG-2") and its class, cleaned of the placeholders mappers leave
// ("FIXME"), which no one should read aloud.
type road struct{ name, ref, class string }

func cleanRoad(name, ref, class string) road {
	return road{name: cleanLabel(name), ref: cleanLabel(ref), class: class}
}

func cleanLabel(s string) string {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "fixme") || strings.EqualFold(t, "todo") || strings.EqualFold(t, "unknown") {
		return "" // compared without lowering a copy: every road at every junction is read
	}
	return s
}

// named reports whether the road has a name or a reference to say.
func (r road) named() bool { return r.name != "" || r.ref != "" }

// same reports whether a and b are one road as a driver reads the signs:
// by name when both have one (ignoring case, as the map mixes "carrer" and
// "Carrer"), else by reference when both have one (a section without its
// name, or without its ref, is still Port d'Envalira or the CG-2), and two
// unnamed roads by class. A named road and an unnamed one differ.
func (a road) same(b road) bool {
	switch {
	case a.name != "" && b.name != "":
		return strings.EqualFold(a.name, b.name)
	case a.ref != "" && b.ref != "":
		return strings.EqualFold(a.ref, b.ref)
	case !a.named() && !b.named():
		return a.class == b.class
	}
	return false
}

// adopt fills in what a lacks of b's name and reference, when they are one
// road: a step that absorbs the next reads with the fuller label.
func (a *road) adopt(b road) {
	if a.name == "" {
		a.name = b.name
	}
	if a.ref == "" {
		a.ref = b.ref
	}
}
