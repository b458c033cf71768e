package guidance

import (
	"strings"
)

// Languages are the languages instructions are written in, by their
// ISO 639-1 codes: English, and Andorra's Catalan with the French and
// Spanish most of its visitors read. Each has one file (english.go,
// catalan.go, spanish.go, french.go) holding all its wording; road names
// and references are the map's, never translated.
var Languages = []string{"en", "ca", "es", "fr"}

// DefaultLanguage is the language of a Leg that names none.
const DefaultLanguage = "en"

// wording writes the instructions of one language.
type wording interface {
	// describe writes step s's instruction; stay is true when s keeps to
	// the road the previous step followed (a turn or fork that stays on it).
	describe(s *Step, stay bool) string
}

// wordings maps each of Languages to its wording.
var wordings = map[string]wording{"en": english{}, "ca": catalan{}, "es": spanish{}, "fr": french{}}

// Language returns the language of Languages that tag names, a BCP 47
// language tag such as "fr", "FR" or "ca-AD" (its primary subtag decides),
// and whether there is one.
func Language(tag string) (string, bool) {
	primary, _, _ := strings.Cut(tag, "-")
	primary = strings.ToLower(strings.TrimSpace(primary))
	if _, ok := wordings[primary]; ok {
		return primary, true
	}
	return "", false
}

// wordingOf returns the wording of language lang, English for "" or an
// unknown code.
func wordingOf(lang string) wording {
	if w, ok := wordings[lang]; ok {
		return w
	}
	return english{}
}

// label names a road for an instruction: its name and reference, else
// either, else the language's description of its class.
func (r road) label(classPhrase func(string) string) string {
	switch {
	case r.name != "" && r.ref != "":
		return r.name + " (" + r.ref + ")"
	case r.name != "":
		return r.name
	case r.ref != "":
		return r.ref
	}
	return classPhrase(r.class)
}

// unnamedRamp reports whether a road is a ramp with nothing to call it by.
func (r road) unnamedRamp() bool { return !r.named() && strings.HasSuffix(r.class, "_link") }

// truncate keeps an instruction within the API's 1000 characters.
func truncate(s string) string {
	if len(s) <= 1000 {
		return s
	}
	return strings.ToValidUTF8(s[:997], "") + "..."
}

// compassIndex numbers a heading (degrees counter-clockwise from east) as
// one of eight compass points: 0 east, 1 northeast, 2 north, ... 7
// southeast.
func compassIndex(h float64) int { return int((h+360+22.5)/45) % 8 }

// Road kinds a language names an unnamed road by (classKind).
const (
	kindMotorway = iota
	kindTrunk
	kindPrimary
	kindSecondary
	kindTertiary
	kindRamp
	kindStreet
	kindService
	kindTrack
	kindPath
	kindCycleway
	kindSteps
	kindFerry
	kindRoad
	numKinds
)

// classKind sorts an OSM road class into the kinds the languages name.
func classKind(class string) int {
	switch class {
	case "motorway":
		return kindMotorway
	case "trunk":
		return kindTrunk
	case "primary":
		return kindPrimary
	case "secondary":
		return kindSecondary
	case "tertiary":
		return kindTertiary
	case "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link":
		return kindRamp
	case "residential", "living_street", "unclassified":
		return kindStreet
	case "service":
		return kindService
	case "track":
		return kindTrack
	case "footway", "pedestrian", "path", "bridleway":
		return kindPath
	case "cycleway":
		return kindCycleway
	case "steps":
		return kindSteps
	case "ferry":
		return kindFerry
	}
	return kindRoad
}

// sideIndex is 0 for a modifier on the left, 1 on the right.
func sideIndex(modifier string) int {
	if strings.HasSuffix(modifier, "right") {
		return 1
	}
	return 0
}

// romanceLabel is a road's label after a preposition in Catalan or
// Spanish: a named road as the map names it, an unnamed one by its kind,
// whose article the preposition may absorb ("a" + "el carrer" is "al
// carrer"; contractions maps "a el" to "al").
func romanceLabel(r road, kinds *[numKinds]string, prep string, contractions map[string]string) string {
	if r.named() {
		return prep + " " + r.label(nil)
	}
	phrase := kinds[classKind(r.class)]
	article, rest, _ := strings.Cut(phrase, " ")
	if c, ok := contractions[prep+" "+article]; ok {
		return c + " " + rest
	}
	return prep + " " + phrase
}
