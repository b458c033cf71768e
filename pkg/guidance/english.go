package guidance

import "fmt"

// This file is the only one that writes English. Each maneuver has one
// wording; road names come in as the road's label (see label), never
// translated.

// english is the wording of language "en".
type english struct{}

// describe writes step s's instruction; stay is true when s keeps to the
// road the previous step followed (a turn or a fork that stays on it).
func (english) describe(s *Step, stay bool) string {
	r := s.road()
	label := r.label(classPhrase)
	switch s.Maneuver {
	case Depart:
		return fmt.Sprintf("Head %s on %s", compass(s.heading), label)
	case Turn:
		if stay {
			return fmt.Sprintf("Turn %s to stay on %s", s.Modifier, label)
		}
		return fmt.Sprintf("Turn %s onto %s", s.Modifier, label)
	case Continue:
		if stay {
			return "Continue straight on " + label
		}
		return "Continue onto " + label
	case Fork:
		if stay {
			return fmt.Sprintf("Keep %s to stay on %s", s.Modifier, label)
		}
		return fmt.Sprintf("Keep %s onto %s", s.Modifier, label)
	case Ramp:
		if r.unnamedRamp() {
			return fmt.Sprintf("Take the ramp on the %s", s.sideWord())
		}
		return fmt.Sprintf("Take the ramp on the %s onto %s", s.sideWord(), label)
	case OffRamp:
		if r.unnamedRamp() {
			return fmt.Sprintf("Take the exit on the %s", s.sideWord())
		}
		return fmt.Sprintf("Take the exit on the %s onto %s", s.sideWord(), label)
	case Merge:
		return "Merge onto " + label
	case Roundabout:
		if s.Exit == 0 {
			return "Enter the roundabout on " + label
		}
		return fmt.Sprintf("At the roundabout, take the %s exit onto %s", ordinal(s.Exit), label)
	case UTurn:
		return "Make a U-turn onto " + label
	case Arrive:
		if s.Waypoint > 0 {
			if s.Modifier == "" {
				return fmt.Sprintf("You have reached waypoint %d", s.Waypoint)
			}
			return fmt.Sprintf("You have reached waypoint %d, on the %s", s.Waypoint, s.Modifier)
		}
		if s.Modifier == "" {
			return "You have arrived at your destination"
		}
		return fmt.Sprintf("You have arrived at your destination, on the %s", s.Modifier)
	}
	return label
}

func classPhrase(class string) string {
	switch class {
	case "motorway", "trunk", "primary", "secondary", "tertiary":
		return "the " + class + " road"
	case "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link":
		return "the ramp"
	case "residential", "living_street", "unclassified":
		return "the street"
	case "service":
		return "the service road"
	case "track":
		return "the track"
	case "footway", "pedestrian", "path", "bridleway":
		return "the path"
	case "cycleway":
		return "the cycle path"
	case "steps":
		return "the steps"
	case "ferry":
		return "the ferry"
	}
	return "the road"
}

// compass names a heading (degrees counter-clockwise from east).
func compass(h float64) string {
	names := [...]string{"east", "northeast", "north", "northwest", "west", "southwest", "south", "southeast"}
	return names[compassIndex(h)]
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprint(n) + suffix
}
