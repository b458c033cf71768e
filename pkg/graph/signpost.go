package graph

import "strings"

// Signpost is what the signs of a way say where it leaves a junction, as
// OSM maps it on the way: destination (places, ";"-separated in OSM),
// destination:ref (road numbers) and junction:ref (the exit's number).
type Signpost struct {
	Destination    string
	DestinationRef string
	JunctionRef    string
}

// IsZero reports whether nothing is signposted.
func (s Signpost) IsZero() bool { return s == Signpost{} }

// signSep separates a signpost's fields in the string table: a control
// character no tag value holds.
const signSep = "\x1f"

func (s Signpost) encode() string {
	if s.IsZero() {
		return ""
	}
	return s.Destination + signSep + s.DestinationRef + signSep + s.JunctionRef
}

func parseSignpost(v string) Signpost {
	f := strings.SplitN(v, signSep, 3)
	if len(f) != 3 {
		return Signpost{}
	}
	return Signpost{Destination: f[0], DestinationRef: f[1], JunctionRef: f[2]}
}
