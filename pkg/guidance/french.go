package guidance

import "fmt"

// This file is the only one that writes French, in the formal imperative
// French navigation apps use ("Tournez à droite"). Road names and
// references are never translated.

// french is the wording of language "fr".
type french struct{}

var (
	frenchKinds = [numKinds]string{"l'autoroute", "la voie express", "la route principale", "la route secondaire",
		"la route locale", "la bretelle", "la rue", "la voie de service", "la piste", "le chemin", "la piste cyclable",
		"l'escalier", "le bac", "la route"}
	frenchSides   = [2]string{"gauche", "droite"}
	frenchCompass = [8]string{"l'est", "le nord-est", "le nord", "le nord-ouest", "l'ouest", "le sud-ouest", "le sud",
		"le sud-est"}
	frenchOrdinals = []string{"première", "deuxième", "troisième", "quatrième", "cinquième", "sixième", "septième",
		"huitième", "neuvième", "dixième"}
)

func (french) describe(s *Step, stay bool) string {
	r := s.road()
	label := r.label(func(class string) string { return frenchKinds[classKind(class)] })
	side := frenchSides[sideIndex(s.sideWord())]
	switch s.Maneuver {
	case Depart:
		return fmt.Sprintf("Dirigez-vous vers %s sur %s", frenchCompass[compassIndex(s.heading)], label)
	case Turn:
		if stay {
			return fmt.Sprintf("Tournez %s pour rester sur %s", frenchTurn(s.Modifier), label)
		}
		return fmt.Sprintf("Tournez %s sur %s", frenchTurn(s.Modifier), label)
	case Continue:
		if stay {
			return "Continuez tout droit sur " + label
		}
		return "Continuez sur " + label
	case Fork:
		if stay {
			return fmt.Sprintf("Serrez à %s pour rester sur %s", side, label)
		}
		return fmt.Sprintf("Serrez à %s sur %s", side, label)
	case Ramp, OffRamp:
		what := "la bretelle"
		if s.Maneuver == OffRamp {
			what = "la sortie"
		}
		if r.unnamedRamp() {
			return fmt.Sprintf("Prenez %s à %s", what, side)
		}
		return fmt.Sprintf("Prenez %s à %s vers %s", what, side, label)
	case Merge:
		return "Insérez-vous sur " + label
	case Roundabout:
		if s.Exit == 0 {
			return "Entrez dans le rond-point par " + label
		}
		return fmt.Sprintf("Au rond-point, prenez la %s sortie vers %s", ordinalFrom(frenchOrdinals, s.Exit, "e"), label)
	case UTurn:
		return "Faites demi-tour sur " + label
	case Arrive:
		where := ""
		if s.Modifier != "" {
			where = ", sur votre " + side
		}
		if s.Waypoint > 0 {
			return fmt.Sprintf("Vous êtes arrivé à l'étape %d%s", s.Waypoint, where)
		}
		return "Vous êtes arrivé à destination" + where
	}
	return label
}

// frenchTurn says how to turn: "à droite", "légèrement à gauche",
// "franchement à droite".
func frenchTurn(modifier string) string {
	base := "à " + frenchSides[sideIndex(modifier)]
	switch modifier {
	case "slight left", "slight right":
		return "légèrement " + base
	case "sharp left", "sharp right":
		return "franchement " + base
	}
	return base
}
