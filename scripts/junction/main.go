// Command junction prints what a guidance question needs about a junction, read from the OSM extract itself: for an
// OSM node id, or every node within -within metres of a lon,lat point, each highway way through it with its class,
// name, reference, oneway, junction, lanes and access tags, the bearing of its next node either way, and its shape
// over the next 60 m (metres along @ bearing, and the node's coordinates). It is how the junctions behind
// docs/osrm-agreement.md's disagreements were read (issue 33).
//
//	go run ./scripts/junction -osm ../shared/data/andorra.osm.pbf 51449552 1.49155,42.46706
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"strconv"
	"strings"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/osm"
)

// way is a highway way as read from the extract.
type way struct {
	id    int64
	nodes []int64
	tags  map[string]string
}

func main() {
	pbf := flag.String("osm", "../shared/data/andorra.osm.pbf", "OSM extract")
	within := flag.Float64("within", 12, "metres around a lon,lat point")
	flag.Parse()
	e, err := load(*pbf)
	if err != nil {
		log.Fatal(err)
	}
	for _, arg := range flag.Args() {
		fmt.Printf("== %s\n", arg)
		id, err := strconv.ParseInt(arg, 10, 64)
		if err == nil {
			e.show(id, 0)
			continue
		}
		var lon, lat float64
		if _, err := fmt.Sscanf(arg, "%f,%f", &lon, &lat); err != nil {
			log.Fatalf("%q: neither an OSM node id nor lon,lat", arg)
		}
		for id := range e.byNode {
			c := e.coord[id]
			if d := geo.Distance(lon, lat, c[0], c[1]); d <= *within {
				e.show(id, d)
			}
		}
	}
}

// extract is what the command reads of an OSM extract.
type extract struct {
	coord  map[int64][2]float64
	ways   []way
	byNode map[int64][]int // node id -> indexes of the highway ways through it
}

func load(pbf string) (*extract, error) {
	e := &extract{coord: map[int64][2]float64{}, byNode: map[int64][]int{}}
	err := osm.Scan(context.Background(), pbf, osm.Handlers{
		Node: func(n *osm.Node) error { e.coord[n.ID] = [2]float64{n.Lon, n.Lat}; return nil },
		Way: func(w *osm.Way) error {
			if w.Tags["highway"] == "" {
				return nil
			}
			t := map[string]string{}
			for k, v := range w.Tags {
				t[k] = v
			}
			for _, n := range w.NodeIDs {
				e.byNode[n] = append(e.byNode[n], len(e.ways))
			}
			e.ways = append(e.ways, way{w.ID, append([]int64(nil), w.NodeIDs...), t})
			return nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", pbf, err)
	}
	return e, nil
}

// show prints node id (d metres from the point asked) and the ways through it.
func (e *extract) show(id int64, d float64) {
	c := e.coord[id]
	fmt.Printf("node %d (%.7f,%.7f) %.0f m, %d ways\n", id, c[0], c[1], d, len(e.byNode[id]))
	for _, wi := range e.byNode[id] {
		w := e.ways[wi]
		for k, n := range w.nodes {
			if n != id {
				continue
			}
			var dirs []string
			if k > 0 {
				dirs = append(dirs, fmt.Sprintf("back %3.0f", brg(c, e.coord[w.nodes[k-1]])))
			}
			if k < len(w.nodes)-1 {
				dirs = append(dirs, fmt.Sprintf("fwd %3.0f", brg(c, e.coord[w.nodes[k+1]])))
			}
			t := w.tags
			fmt.Printf("   way %d %s name=%q ref=%q oneway=%q junction=%q lanes=%q access=%q motor=%q service=%q [%s]\n", w.id,
				t["highway"], t["name"], t["ref"], t["oneway"], t["junction"], t["lanes"], t["access"],
				t["motor_vehicle"]+t["motorcar"]+t["vehicle"], t["service"], strings.Join(dirs, ", "))
			for _, dir := range []int{-1, 1} {
				if walk := e.shape(w, k, dir, c); walk != "" {
					fmt.Printf("      %+d: %s\n", dir, walk)
				}
			}
		}
	}
}

// shape is way w's next 60 m from its k-th node in direction dir: metres
// along @ bearing from c (the node's coordinates).
func (e *extract) shape(w way, k, dir int, c [2]float64) string {
	var walk []string
	dist := 0.0
	for j := k + dir; j >= 0 && j < len(w.nodes) && dist < 60; j += dir {
		a, b := e.coord[w.nodes[j-dir]], e.coord[w.nodes[j]]
		dist += geo.Distance(a[0], a[1], b[0], b[1])
		walk = append(walk, fmt.Sprintf("%.1fm@%.1f(%.7f,%.7f)", dist, brg(c, b), b[0], b[1]))
	}
	return strings.Join(walk, " ")
}

// brg is the compass bearing from a to b, degrees clockwise from north.
func brg(a, b [2]float64) float64 {
	k := math.Cos(a[1] * math.Pi / 180)
	dx, dy := (b[0]-a[0])*k, b[1]-a[1]
	x := math.Atan2(dx, dy) * 180 / math.Pi
	if x < 0 {
		x += 360
	}
	return x
}
