package graph

import "math"

// TurnModel prices a turn at a node for one profile. The shape follows
// OSRM's car profile: a sigmoid of the turn angle, so going straight costs
// almost nothing, a right angle about half of TurnS and a hairpin nearly all
// of it; turns across oncoming traffic (left, in right-hand traffic) cost
// more by CrossBias.
type TurnModel struct {
	TurnS     float64 // seconds for the sharpest turn
	CrossBias float64 // multiplier for left turns; 1 for none
	UTurnS    float64 // seconds for turning back onto the same road
	NoUTurns  bool    // U-turns only where nothing else is possible (dead ends, barriers); otherwise also at junctions (uturn.go)
}

// DefaultTurnModel is used for a profile that gives none: OSRM's car values.
func DefaultTurnModel() TurnModel { return TurnModel{TurnS: 7.5, CrossBias: 1.075, UTurnS: 20} }

// cost returns the turn's price in milliseconds for a change of heading of
// angle degrees, positive to the left, in (-180, 180].
func (m TurnModel) cost(angle float64) uint32 {
	a := math.Abs(angle)
	s := m.TurnS / (1 + math.Exp(-(13*a/180 - 6.5)))
	if angle > 0 && m.CrossBias > 0 {
		s *= m.CrossBias
	}
	return uint32(math.Round(s * 1000))
}
