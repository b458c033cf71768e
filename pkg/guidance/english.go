package guidance

import (
	"fmt"
	"strings"
)

// This file is the only one that writes English. Each maneuver has one
// function; road names come in as the road's label (see roadLabel).

// roadLabel names a road for an instruction: its name, else its reference,
// else a description of its class.
func roadLabel(name, ref, class string) string {
	switch {
	case name != "" && ref != "":
		return name + " (" + ref + ")"
	case name != "":
		return name
	case ref != "":
		return ref
	}
	return classPhrase(class)
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
	i := int((h+360+22.5)/45) % 8
	return names[i]
}

func departText(heading float64, road string) string {
	return fmt.Sprintf("Head %s on %s", compass(heading), road)
}

func turnText(modifier, road string) string {
	return fmt.Sprintf("Turn %s onto %s", modifier, road)
}

func continueText(road string) string { return "Continue onto " + road }

func forkText(side, road string) string { return fmt.Sprintf("Keep %s onto %s", side, road) }

func rampText(side, road string) string {
	return fmt.Sprintf("Take the ramp on the %s onto %s", side, road)
}

func offRampText(side, road string) string {
	return fmt.Sprintf("Take the exit on the %s onto %s", side, road)
}

func mergeText(road string) string { return "Merge onto " + road }

func roundaboutText(exit int, road string) string {
	return fmt.Sprintf("At the roundabout, take the %s exit onto %s", ordinal(exit), road)
}

func enterRoundaboutText(road string) string { return "Enter the roundabout on " + road }

func uTurnText(road string) string { return "Make a U-turn onto " + road }

func arriveText(side string) string {
	if side == "" {
		return "You have arrived at your destination"
	}
	return fmt.Sprintf("You have arrived at your destination, on the %s", side)
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

// truncate keeps an instruction within the API's 1000 characters.
func truncate(s string) string {
	if len(s) <= 1000 {
		return s
	}
	return strings.ToValidUTF8(s[:997], "") + "..."
}
