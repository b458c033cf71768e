package guidance

import "strings"

// announced reports whether going from road a onto road b is a change of
// road a driver must be told, read as OSRM's guidance reads names and
// references (its requiresNameAnnounced, read, not copied): a road that
// only gains or loses a name while its reference goes on, or gains or
// loses a reference under the same name, or whose name only grows (the
// "Carrer Major" that becomes "Carrer Major de Sant Julià") is the same
// road; a new name under the same reference, a new reference on unnamed
// roads, or a named road onto an unnamed one with a reference (and the
// reverse) is another. Unlike road.same, names are compared as written:
// OSRM tells "carrer" from "Carrer". Junctions are classified by this
// rule, so that a junction is a decision where OSRM's is; road.same still
// decides the wording ("to stay on").
func announced(a, b road) bool {
	if !a.named() {
		return b.named()
	}
	namesEmpty := a.name == "" && b.name == ""
	namesEqual := a.name == b.name || strings.HasPrefix(a.name, b.name) || strings.HasPrefix(b.name, a.name)
	nameRemoved := a.name != "" && b.name == ""
	refsEmpty := a.ref == "" && b.ref == ""
	refContained := a.ref == "" || b.ref == "" || strings.Contains(a.ref, b.ref) || strings.Contains(b.ref, a.ref)
	refRemoved := a.ref != "" && b.ref == ""
	obvious := namesEmpty && refsEmpty || namesEqual && (refContained || refsEmpty || refRemoved) ||
		refContained && nameRemoved
	mustSay := a.name == "" && a.ref != "" && b.name != "" && b.ref == "" ||
		a.name != "" && a.ref == "" && b.name == "" && b.ref != "" ||
		namesEmpty && !refContained
	return !obvious || mustSay
}
