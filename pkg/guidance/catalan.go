package guidance

import "fmt"

// This file is the only one that writes Catalan, Andorra's official
// language, in the familiar imperative navigation apps use ("Gira a la
// dreta"). Road names and references are never translated.

// catalan is the wording of language "ca".
type catalan struct{}

var (
	catalanKinds = [numKinds]string{"l'autopista", "la via ràpida", "la carretera principal",
		"la carretera secundària", "la carretera local", "la rampa", "el carrer", "la via de servei", "la pista",
		"el camí", "el carril bici", "les escales", "el transbordador", "la carretera"}
	catalanContractions = map[string]string{"a el": "al", "a els": "als", "per el": "pel", "per els": "pels"}
	catalanSides        = [2]string{"a l'esquerra", "a la dreta"} // "at the left", elided before a vowel
	catalanCompass      = [8]string{"a l'est", "al nord-est", "al nord", "al nord-oest", "a l'oest", "al sud-oest",
		"al sud", "al sud-est"}
	catalanOrdinals = []string{"primera", "segona", "tercera", "quarta", "cinquena", "sisena", "setena", "vuitena",
		"novena", "desena"}
)

func (catalan) describe(s *Step, stay bool) string {
	r := s.road()
	to := func(prep string) string { return romanceLabel(r, &catalanKinds, prep, catalanContractions) }
	side := catalanSides[sideIndex(s.sideWord())]
	switch s.Maneuver {
	case Depart:
		return fmt.Sprintf("Ves cap %s %s", catalanCompass[compassIndex(s.heading)], to("per"))
	case Turn:
		if stay {
			return fmt.Sprintf("Gira %s per continuar %s", catalanTurn(s.Modifier), to("per"))
		}
		return fmt.Sprintf("Gira %s cap %s", catalanTurn(s.Modifier), to("a"))
	case Continue:
		if stay {
			return "Continua recte " + to("per")
		}
		return "Continua " + to("per")
	case Fork:
		if stay {
			return fmt.Sprintf("Mantén-te %s per continuar %s", side, to("per"))
		}
		return fmt.Sprintf("Mantén-te %s cap %s", side, to("a"))
	case Ramp, OffRamp:
		what := "la rampa"
		if s.Maneuver == OffRamp {
			what = "la sortida"
		}
		if r.unnamedRamp() {
			return fmt.Sprintf("Agafa %s %s", what, side)
		}
		return fmt.Sprintf("Agafa %s %s cap %s", what, side, to("a"))
	case Merge:
		return "Incorpora't " + to("a")
	case Roundabout:
		if s.Exit == 0 {
			return "Entra a la rotonda " + to("per")
		}
		return fmt.Sprintf("A la rotonda, agafa la %s sortida cap %s", ordinalFrom(catalanOrdinals, s.Exit, "a"), to("a"))
	case UTurn:
		return "Fes mitja volta cap " + to("a")
	case Arrive:
		where := ""
		if s.Modifier != "" {
			where = ", " + side
		}
		if s.Waypoint > 0 {
			return fmt.Sprintf("Has arribat al punt de pas %d%s", s.Waypoint, where)
		}
		return "Has arribat a la destinació" + where
	}
	return to("per")
}

// catalanTurn says how to turn: "a la dreta", "lleugerament a l'esquerra",
// "bruscament a la dreta".
func catalanTurn(modifier string) string {
	base := catalanSides[sideIndex(modifier)]
	switch modifier {
	case "slight left", "slight right":
		return "lleugerament " + base
	case "sharp left", "sharp right":
		return "bruscament " + base
	}
	return base
}

// ordinalFrom names exit n from a language's list of the first ordinals,
// else as the number and suffix ("11a").
func ordinalFrom(words []string, n int, suffix string) string {
	if n >= 1 && n <= len(words) {
		return words[n-1]
	}
	return fmt.Sprint(n) + suffix
}
