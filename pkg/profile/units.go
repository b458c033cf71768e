package profile

import "strings"

// Parsers for the OSM quantity tags a profile reads. They accept the common spellings, reject everything else
// with ok=false (the caller then ignores the tag), never allocate, and never return NaN, infinities or values
// outside a sane range, because their input is whatever a mapper typed.

const (
	kmhPerMph   = 1.609344
	kmhPerKnot  = 1.852
	metresPerFt = 0.3048
	metresPerIn = 0.0254
	tonnesPerLb = 0.00045359237
	tonnesPerSt = 0.90718474 // US short ton, OSM's "st"
	maxDigits   = 9          // more digits than any real limit; keeps the float exact and bounded
)

// ParseSpeed parses a numeric speed: "50", "50 km/h", "50kmh", "50 kph", "30 mph", "12 knots" (a decimal comma
// is accepted). It returns km/h in [1, 400]. Symbolic values ("none", "walk", "signals", "FR:urban") are not
// numeric and give ok=false; the profile's maxspeed rules handle those.
func ParseSpeed(s string) (kmh float64, ok bool) {
	v, unit, ok := parseNumber(s)
	if !ok {
		return 0, false
	}
	switch unit {
	case "", "km/h", "kmh", "kph":
	case "mph":
		v *= kmhPerMph
	case "knots":
		v *= kmhPerKnot
	default:
		return 0, false
	}
	return v, v >= 1 && v <= 400
}

// ParseLength parses maxheight/maxwidth/maxlength values: "3.8", "3.8 m", "4,2m", "12 ft", "12'6\"". It returns
// metres in (0, 100].
func ParseLength(s string) (m float64, ok bool) {
	v, unit, ok := parseNumber(s)
	if !ok {
		return 0, false
	}
	switch {
	case unit == "" || unit == "m":
	case unit == "ft":
		v *= metresPerFt
	case unit[0] == '\'':
		inches, ok := parseInches(unit[1:])
		if !ok {
			return 0, false
		}
		v = v*metresPerFt + inches*metresPerIn
	default:
		return 0, false
	}
	return v, v > 0 && v <= maxSaneSizeM
}

// parseInches reads the `6"` after a feet mark; an empty rest means whole feet (`12'`).
func parseInches(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	v, unit, ok := parseNumber(s)
	return v, ok && unit == `"` && v < 12
}

// ParseWeight parses maxweight values: "3.5", "3.5 t", "7500 kg", "5 st", "10000 lbs". It returns tonnes in
// (0, 1000].
func ParseWeight(s string) (t float64, ok bool) {
	v, unit, ok := parseNumber(s)
	if !ok {
		return 0, false
	}
	switch unit {
	case "", "t":
	case "kg":
		v /= 1000
	case "st":
		v *= tonnesPerSt
	case "lbs":
		v *= tonnesPerLb
	default:
		return 0, false
	}
	return v, v > 0 && v <= maxSaneWeightT
}

// parseNumber reads a leading unsigned decimal number (digits, at most one '.' or ',' followed by digits) and
// returns it with the trimmed rest of the string, which names the unit.
func parseNumber(s string) (v float64, unit string, ok bool) {
	s = strings.TrimSpace(s)
	var whole, frac, scale float64 = 0, 0, 1
	digits, i := 0, 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		whole = whole*10 + float64(s[i]-'0')
		digits++
	}
	if digits == 0 {
		return 0, "", false
	}
	if i+1 < len(s) && (s[i] == '.' || s[i] == ',') && isDigit(s[i+1]) {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			frac = frac*10 + float64(s[i]-'0')
			scale *= 10
			digits++
		}
	}
	if digits > maxDigits {
		return 0, "", false
	}
	return whole + frac/scale, strings.TrimSpace(s[i:]), true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
