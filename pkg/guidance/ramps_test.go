package guidance_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
)

// TestRampModifiers drives car routes between uniform points over Andorra
// and checks every ramp step: its modifier is the maneuver's direction as
// OSRM grades it (straight within 20 degrees of the way in, slight to 40,
// then left or right), read from the angle the step says was turned, as a
// driver perceives it (Step.Turned; the bearings are those of the first
// piece of shape either side), while the instruction still says the side the ramp leaves on,
// which agrees with the direction whenever the ramp bends.
func TestRampModifiers(t *testing.T) {
	r := compiletest.OpenAndorra(t).Routers["car"]
	rng := rand.New(rand.NewPCG(33, 11))
	box := bounds(r.Graph().Net)
	ramps, straight := 0, 0
	for done := 0; done < 300; {
		pts := []route.Point{box.uniform(rng), box.uniform(rng)}
		d, err := r.Directions(context.Background(), route.Request{Points: pts, Steps: true})
		if err != nil {
			continue
		}
		done++
		for _, s := range d.Routes[0].Steps[0] {
			if s.Maneuver != guidance.Ramp && s.Maneuver != guidance.OffRamp {
				continue
			}
			ramps++
			dev := math.Abs(s.Turned)
			switch {
			case s.Modifier == "straight":
				straight++
				if dev > 20 {
					t.Errorf("%v: %q at %v turns %.1f degrees, modifier straight", pts, s.Instruction, s.Location, dev)
				}
			case dev <= 20:
				t.Errorf("%v: %q at %v turns %.1f degrees, modifier %q, not straight", pts, s.Instruction, s.Location, dev, s.Modifier)
			case !strings.Contains(s.Instruction, "on the "+sideOf(s.Modifier)):
				t.Errorf("%v: %q at %v: modifier %q, another side", pts, s.Instruction, s.Location, s.Modifier)
			}
		}
	}
	t.Logf("%d ramps, %d of them straight on", ramps, straight)
	if ramps == 0 || straight == 0 {
		t.Fatal("no straight ramp checked")
	}
}

func sideOf(modifier string) string {
	if strings.HasSuffix(modifier, "left") {
		return "left"
	}
	return "right"
}
