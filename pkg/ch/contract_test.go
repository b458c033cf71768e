package ch

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBuildSameForAnyWorkers: the first priorities are simulated on several
// goroutines, block by block; the hierarchy must not depend on how many
// (mapc build promises identical artifacts on any machine). The graphs
// span several blocks and have marked nodes.
func TestBuildSameForAnyWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 3 {
		in := randomGraph(rng, 9000+rng.IntN(4000))
		if round > 0 {
			in.Marked = func(v uint32) bool { return v%97 == uint32(round) }
		}
		one, err := build(context.Background(), in, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{0, 2, 3} { // 0: BuildWorkers takes at least one
			h, err := BuildWorkers(context.Background(), in, workers)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(h.UpFirst, one.UpFirst) || !slices.Equal(h.Up, one.Up) ||
				!slices.Equal(h.DnFirst, one.DnFirst) || !slices.Equal(h.Dn, one.Dn) || !slices.Equal(h.Vary, one.Vary) {
				t.Fatalf("round %d: %d workers built another hierarchy than one worker", round, workers)
			}
		}
	}
}
