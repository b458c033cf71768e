package profile

// Turns is a profile's turn cost model, applied on the turn-expanded graph
// (package graph, TurnModel): a sigmoid of the turn angle reaching TurnS for
// a hairpin, left turns (across traffic, in right-hand-traffic Andorra)
// costing CrossBias times more, and U-turns costing UTurnS or, with
// NoUTurns, allowed only where nothing else is possible.
type Turns struct {
	TurnS     float64 `json:"turn_s"`
	CrossBias float64 `json:"cross_bias"`
	UTurnS    float64 `json:"u_turn_s"`
	NoUTurns  bool    `json:"no_u_turns"`
}

func (c *checker) checkTurns(t *Turns) {
	if t == nil {
		c.fail("turns", "is missing: give turn_s, cross_bias and u_turn_s")
		return
	}
	c.number("turns.turn_s", t.TurnS, 0, 120, true)
	c.number("turns.cross_bias", t.CrossBias, 1, maxSaneFactor, true)
	c.number("turns.u_turn_s", t.UTurnS, 0, 600, true)
}
