package elevation

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestCacheConcurrent reads from many goroutines through a cache far smaller
// than the blocks touched, so hits, misses and evictions race; run with
// -race. Every answer must equal the one from a DEM with a cache big enough
// to hold everything.
func TestCacheConcurrent(t *testing.T) {
	small, big := openDEM(t, 8), openDEM(t, 400)
	rng := rand.New(rand.NewPCG(1, 2))
	pts := make([][2]float64, 2000)
	for i := range pts { // Andorra and around: about 20 blocks
		pts[i] = [2]float64{1.4 + 0.4*rng.Float64(), 42.4 + 0.3*rng.Float64()}
	}
	want, _ := big.AtMany(nil, nil, pts)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < len(pts); k++ {
				i := (k*7 + g*131) % len(pts)
				if h, ok := small.At(pts[i][0], pts[i][1]); !ok || h != want[i] {
					t.Errorf("goroutine %d point %d: %.3f %v, want %.3f", g, i, h, ok, want[i])
					return
				}
			}
		}(g)
	}
	wg.Wait()
	st := small.CacheStats()
	if st.Resident > 8 || st.Capacity != 8 || st.Misses == 0 {
		t.Errorf("cache of 8 blocks: %+v", st)
	}
}

// TestCacheBounded touches every block of both tiles and checks the cache
// never holds more than its capacity, for several capacities.
func TestCacheBounded(t *testing.T) {
	for _, capacity := range []int{1, 5, 16, 33} {
		d := openDEM(t, capacity)
		for lat := 41.0; lat <= 43; lat += 0.05 {
			for lon := 1.0; lon <= 2; lon += 0.05 {
				d.At(lon, lat)
			}
			if st := d.CacheStats(); st.Resident > capacity {
				t.Fatalf("capacity %d: %d blocks resident", capacity, st.Resident)
			}
		}
		st := d.CacheStats()
		if st.Capacity != capacity || st.Resident != capacity {
			t.Errorf("capacity %d after touching 200 blocks: %+v", capacity, st)
		}
	}
}

func TestCacheHitDoesNotAllocate(t *testing.T) {
	d := openDEM(t, 0)
	d.At(1.5218, 42.5063)
	if n := testing.AllocsPerRun(1000, func() { d.At(1.5218, 42.5063) }); n != 0 {
		t.Errorf("At on a cache hit allocates %.0f times", n)
	}
	before := d.CacheStats()
	d.At(1.5219, 42.5064)
	if after := d.CacheStats(); after.Hits != before.Hits+1 || after.Misses != before.Misses {
		t.Errorf("second point in the same block: before %+v, after %+v", before, after)
	}
}
