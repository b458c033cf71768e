package profile

import (
	"errors"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/qedus/osmpbf"

	"github.com/mapsco/maps/pkg/internal/shareddata"
)

// andorraTally counts, for one profile, what it makes of the real Andorra extract.
type andorraTally struct {
	usable, oneway, asymmetric, barriers, restrictions int
	minKmh, maxKmh, sumKmh                             float64
	classes                                            map[string]int
}

// TestAndorra evaluates every way, node and relation of the real Andorra extract with every profile and checks
// totals that any sane set of profiles must meet there.
func TestAndorra(t *testing.T) {
	ps := loadAll(t)
	andorraPBF := shareddata.Path(t, "andorra.osm.pbf")
	f, err := os.Open(andorraPBF)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := osmpbf.NewDecoder(f)
	if err := d.Start(runtime.GOMAXPROCS(0)); err != nil {
		t.Fatalf("decode %s: %v", andorraPBF, err)
	}
	tally := make(map[string]*andorraTally)
	for _, name := range Names() {
		tally[name] = &andorraTally{minKmh: 1e9, classes: make(map[string]int)}
	}
	var highways, restrictionRelations int
	for {
		v, err := d.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("decode %s: %v", andorraPBF, err)
		}
		switch o := v.(type) {
		case *osmpbf.Way:
			if o.Tags["highway"] != "" {
				highways++
			}
			for _, name := range Names() {
				tallyWay(t, ps[name], tally[name], o.Tags)
			}
		case *osmpbf.Node:
			for _, name := range Names() {
				if ps[name].Barrier(o.Tags) {
					tally[name].barriers++
				}
			}
		case *osmpbf.Relation:
			if o.Tags["type"] == "restriction" {
				restrictionRelations++
			}
			for _, name := range Names() {
				if _, ok := ps[name].Restriction(o.Tags); ok {
					tally[name].restrictions++
				}
			}
		}
	}
	logAndorra(t, tally, highways, restrictionRelations)
	checkAndorra(t, tally, restrictionRelations)
}

func tallyWay(t *testing.T, p *Profile, c *andorraTally, in map[string]string) {
	w := p.Way(in)
	checkWayInvariant(t, p.Name, in, w)
	if !w.Forward && !w.Backward {
		return
	}
	c.usable++
	c.classes[in["highway"]]++
	if w.Forward != w.Backward {
		c.oneway++
	}
	if w.Forward && w.Backward && w.SpeedForward != w.SpeedBackward {
		c.asymmetric++ // pushing against a oneway, or maxspeed:forward/backward
	}
	for _, s := range [2]float64{w.SpeedForward, w.SpeedBackward} {
		if s > 0 {
			c.minKmh, c.maxKmh = min(c.minKmh, s), max(c.maxKmh, s)
			c.sumKmh += s
		}
	}
}

func logAndorra(t *testing.T, tally map[string]*andorraTally, highways, restrictions int) {
	t.Logf("Andorra: %d highway ways, %d type=restriction relations", highways, restrictions)
	t.Logf("%-18s %7s %7s %9s %9s %8s %8s %8s", "profile", "ways", "oneway", "asym", "barriers", "restr.", "min km/h", "max km/h")
	for _, name := range Names() {
		c := tally[name]
		t.Logf("%-18s %7d %7d %9d %9d %8d %8.2f %8.1f", name, c.usable, c.oneway, c.asymmetric, c.barriers, c.restrictions, c.minKmh, c.maxKmh)
	}
}

func checkAndorra(t *testing.T, tally map[string]*andorraTally, restrictions int) {
	car, moto, truck := tally["car"], tally["moto"], tally["truck"]
	bike, walk, loaded := tally["bicycle"], tally["pedestrian"], tally["pedestrian_loaded"]
	if car.usable < 2500 {
		t.Errorf("car uses %d ways, want at least 2500 of Andorra's ~5000 highway ways", car.usable)
	}
	if car.oneway < 500 {
		t.Errorf("car sees %d oneway ways, Andorra has ~850 oneway=yes", car.oneway)
	}
	if !(moto.usable > car.usable && car.usable > truck.usable) {
		t.Errorf("want moto > car > truck in usable ways, got %d, %d, %d", moto.usable, car.usable, truck.usable)
	}
	if !(walk.usable > car.usable && walk.usable >= loaded.usable && bike.usable > car.usable) {
		t.Errorf("want pedestrian (%d) and bicycle (%d) above car (%d), loaded (%d) at most pedestrian",
			walk.usable, bike.usable, car.usable, loaded.usable)
	}
	if bike.classes["motorway"]+bike.classes["motorway_link"] != 0 || bike.classes["trunk"] == 0 {
		t.Errorf("bicycle: motorway %d (want 0), trunk %d (want > 0)", bike.classes["motorway"], bike.classes["trunk"])
	}
	if car.classes["footway"]+car.classes["path"]+car.classes["steps"] != 0 || moto.classes["steps"] != 0 {
		t.Errorf("car on footway/path/steps %d, moto on steps %d: want 0",
			car.classes["footway"]+car.classes["path"]+car.classes["steps"], moto.classes["steps"])
	}
	if walk.oneway != 0 || walk.classes["steps"] == 0 || walk.classes["path"] < 1000 {
		t.Errorf("pedestrian: %d oneway ways (want 0), %d steps, %d paths", walk.oneway, walk.classes["steps"], walk.classes["path"])
	}
	if bike.asymmetric < 100 || bike.oneway >= car.oneway {
		t.Errorf("bicycle: %d ways ridden one way and pushed the other, %d oneway (car %d): want pushing against oneways",
			bike.asymmetric, bike.oneway, car.oneway)
	}
	if car.restrictions < restrictions*9/10 || walk.restrictions != 0 {
		t.Errorf("restrictions: car %d of %d, pedestrian %d (want nearly all, 0)", car.restrictions, restrictions, walk.restrictions)
	}
	if car.barriers <= walk.barriers || car.barriers == 0 {
		t.Errorf("barriers: car %d, pedestrian %d: want cars blocked more often", car.barriers, walk.barriers)
	}
	for _, name := range Names() {
		if c := tally[name]; c.maxKmh > 130 || c.minKmh <= 0 {
			t.Errorf("%s: speeds %v..%v km/h", name, c.minKmh, c.maxKmh)
		}
	}
}
