package guidance

import "fmt"

// This file is the only one that writes Spanish, in the formal imperative
// Spanish navigation apps use ("Gire a la derecha"). Road names and
// references are never translated.

// spanish is the wording of language "es".
type spanish struct{}

var (
	spanishKinds = [numKinds]string{"la autopista", "la autovía", "la carretera principal", "la carretera secundaria",
		"la carretera local", "la rampa", "la calle", "la vía de servicio", "la pista", "el camino", "el carril bici",
		"las escaleras", "el transbordador", "la carretera"}
	spanishContractions = map[string]string{"a el": "al"}
	spanishSides        = [2]string{"izquierda", "derecha"}
	spanishCompass      = [8]string{"este", "noreste", "norte", "noroeste", "oeste", "suroeste", "sur", "sureste"}
	spanishOrdinals     = []string{"primera", "segunda", "tercera", "cuarta", "quinta", "sexta", "séptima", "octava",
		"novena", "décima"}
)

func (spanish) describe(s *Step, stay bool) string {
	r := s.road()
	to := func(prep string) string { return romanceLabel(r, &spanishKinds, prep, spanishContractions) }
	side := spanishSides[sideIndex(s.sideWord())]
	switch s.Maneuver {
	case Depart:
		return fmt.Sprintf("Diríjase al %s %s", spanishCompass[compassIndex(s.heading)], to("por"))
	case Turn:
		if stay {
			return fmt.Sprintf("Gire %s para seguir %s", spanishTurn(s.Modifier), to("por"))
		}
		return fmt.Sprintf("Gire %s %s", spanishTurn(s.Modifier), to("hacia"))
	case Continue:
		if stay {
			return "Continúe recto " + to("por")
		}
		return "Continúe " + to("por")
	case Fork:
		if stay {
			return fmt.Sprintf("Manténgase a la %s para seguir %s", side, to("por"))
		}
		return fmt.Sprintf("Manténgase a la %s %s", side, to("hacia"))
	case Ramp, OffRamp:
		what := "la rampa"
		if s.Maneuver == OffRamp {
			what = "la salida"
		}
		if r.unnamedRamp() {
			return fmt.Sprintf("Tome %s de la %s", what, side)
		}
		return fmt.Sprintf("Tome %s de la %s %s", what, side, to("hacia"))
	case Merge:
		return "Incorpórese " + to("a")
	case Roundabout:
		if s.Exit == 0 {
			return "Entre en la rotonda " + to("por")
		}
		return fmt.Sprintf("En la rotonda, tome la %s salida %s", ordinalFrom(spanishOrdinals, s.Exit, "ª"), to("hacia"))
	case UTurn:
		return "Cambie de sentido " + to("hacia")
	case Arrive:
		where := ""
		if s.Modifier != "" {
			where = ", a la " + side
		}
		if s.Waypoint > 0 {
			return fmt.Sprintf("Ha llegado al punto de paso %d%s", s.Waypoint, where)
		}
		return "Ha llegado a su destino" + where
	}
	return to("por")
}

// spanishTurn says how to turn: "a la derecha", "ligeramente a la
// izquierda", "bruscamente a la derecha".
func spanishTurn(modifier string) string {
	base := "a la " + spanishSides[sideIndex(modifier)]
	switch modifier {
	case "slight left", "slight right":
		return "ligeramente " + base
	case "sharp left", "sharp right":
		return "bruscamente " + base
	}
	return base
}
