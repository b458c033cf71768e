package graph

import "strings"

// Signpost is what the signs of a way say where it leaves a junction, as
// OSM maps it on the way: destination (places, ";"-separated in OSM),
// destination:ref (road numbers) and junction:ref (the exit's number).
// Forward and Backward are destination:forward and destination:backward,
// the places signed for one direction of travel only (Towards).
type Signpost struct {
	Destination       string
	DestinationRef    string
	JunctionRef       string
	Forward, Backward string
}

// Towards is the signpost as read travelling the way along its node order
// (reversed false) or against it: the direction's own destination where
// one is mapped, else the way's.
func (s Signpost) Towards(reversed bool) Signpost {
	d := s.Forward
	if reversed {
		d = s.Backward
	}
	if d != "" {
		s.Destination = d
	}
	s.Forward, s.Backward = "", ""
	return s
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
	return strings.Join([]string{s.Destination, s.DestinationRef, s.JunctionRef, s.Forward, s.Backward}, signSep)
}

func parseSignpost(v string) Signpost {
	f := strings.SplitN(v, signSep, 5)
	if len(f) != 5 {
		return Signpost{}
	}
	return Signpost{Destination: f[0], DestinationRef: f[1], JunctionRef: f[2], Forward: f[3], Backward: f[4]}
}
