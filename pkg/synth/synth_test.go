package synth

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/internal/shareddata"
	"github.com/mapsco/maps/pkg/osm"
)

// repoRoot returns the repository root, found from this file's location.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// testSources are small extracts so the package's tests stay fast: Monaco
// (45 restrictions) and Stockholm's centre.
func testSources(t *testing.T) []string {
	t.Helper()
	return []string{shareddata.Path(t, "monaco.osm.pbf"), shareddata.Path(t, "cities/stockholm.osm.pbf")}
}

// counts is what a source contributes, counted here independently of the
// generator: highway ways with 2+ nodes, the distinct nodes they reference,
// and restrictions whose members are all among those.
type counts struct{ nodes, ways, rels int64 }

func sourceCounts(t *testing.T, path string) counts {
	t.Helper()
	nodes, ways := map[int64]bool{}, map[int64]bool{}
	var rels []*osm.Relation
	err := osm.Scan(context.Background(), path, osm.Handlers{
		Way: func(w *osm.Way) error {
			if w.Tags["highway"] != "" && len(w.NodeIDs) >= 2 {
				ways[w.ID] = true
				for _, id := range w.NodeIDs {
					nodes[id] = true
				}
			}
			return nil
		},
		Relation: func(r *osm.Relation) error {
			if r.Tags["type"] == "restriction" {
				rels = append(rels, r)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := counts{nodes: int64(len(nodes)), ways: int64(len(ways))}
	for _, r := range rels {
		ok := true
		for _, m := range r.Members {
			ok = ok && ((m.Type == osm.NodeMember && nodes[m.ID]) || (m.Type == osm.WayMember && ways[m.ID]))
		}
		if ok {
			c.rels++
		}
	}
	return c
}

// contents is a generated file read back with qedus/osmpbf (through pkg/osm).
type contents struct {
	nodeIDs, wayIDs, relIDs []int64
	coord                   map[int64][2]float64
	ways                    map[int64]*osm.Way
	rels                    []*osm.Relation
}

func readBack(t *testing.T, path string) *contents {
	t.Helper()
	c := &contents{coord: map[int64][2]float64{}, ways: map[int64]*osm.Way{}}
	err := osm.Scan(context.Background(), path, osm.Handlers{
		Node: func(n *osm.Node) error {
			c.nodeIDs = append(c.nodeIDs, n.ID)
			c.coord[n.ID] = [2]float64{n.Lon, n.Lat}
			return nil
		},
		Way: func(w *osm.Way) error {
			c.wayIDs = append(c.wayIDs, w.ID)
			c.ways[w.ID] = w
			return nil
		},
		Relation: func(r *osm.Relation) error {
			c.relIDs = append(c.relIDs, r.ID)
			c.rels = append(c.rels, r)
			return nil
		},
	})
	if err != nil {
		t.Fatalf("read back %s: %v", path, err)
	}
	return c
}

func generate(t *testing.T, tiles int, out string) *Summary {
	t.Helper()
	s, err := Generate(context.Background(), Options{Sources: testSources(t), Tiles: tiles, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGenerateCountsAndIDs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "four.osm.pbf")
	s := generate(t, 4, out)
	src := []counts{sourceCounts(t, testSources(t)[0]), sourceCounts(t, testSources(t)[1])}
	c := readBack(t, out)

	// 4 tiles alternate the two sources; a 2×2 grid has 4 trunk roads.
	trunkNodes := int64(0)
	for _, tr := range s.Plan.Trunks {
		trunkNodes += int64(len(tr.Via) / 2)
	}
	want := counts{2*src[0].nodes + 2*src[1].nodes + trunkNodes, 2*src[0].ways + 2*src[1].ways + 4, 2*src[0].rels + 2*src[1].rels}
	got := counts{int64(len(c.nodeIDs)), int64(len(c.wayIDs)), int64(len(c.relIDs))}
	if got != want || s.TrunkRoads != 4 || s.Nodes != want.nodes || s.Ways != want.ways || s.Relations != want.rels {
		t.Fatalf("read back %+v, summary %+v, want %+v and 4 trunk roads", got, s, want)
	}
	if src[0].rels == 0 {
		t.Fatal("Monaco should bring restrictions to the test")
	}
	for name, ids := range map[string][]int64{"nodes": c.nodeIDs, "ways": c.wayIDs, "relations": c.relIDs} {
		for i := 1; i < len(ids); i++ {
			if ids[i] <= ids[i-1] {
				t.Fatalf("%s: id %d after %d: not unique and sorted", name, ids[i], ids[i-1])
			}
		}
	}
	for _, w := range c.ways {
		for _, ref := range w.NodeIDs {
			if _, ok := c.coord[ref]; !ok {
				t.Fatalf("way %d references missing node %d", w.ID, ref)
			}
		}
	}
	for _, r := range c.rels {
		for _, m := range r.Members {
			_, okN := c.coord[m.ID]
			_, okW := c.ways[m.ID]
			if (m.Type == osm.NodeMember && !okN) || (m.Type == osm.WayMember && !okW) {
				t.Fatalf("relation %d: missing member %+v", r.ID, m)
			}
		}
	}
}

// tileOf returns which tile a node id belongs to, or -1 for trunk nodes.
func tileOf(p *Plan, id int64) int {
	end := p.Nodes
	if len(p.Trunks) > 0 {
		end = p.Trunks[0].NodeBase
	}
	for i := len(p.Tiles) - 1; i >= 0 && id <= end; i-- {
		if id > p.Tiles[i].NodeBase {
			return i
		}
	}
	return -1
}

func distance(a, b [2]float64) float64 { return geo.Distance(a[0], a[1], b[0], b[1]) }

// planNodes returns the node count of a plan of n tiles of the test sources.
func planNodes(t *testing.T, n int) int64 {
	t.Helper()
	srcs, err := loadSources(context.Background(), testSources(t), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	p, err := makePlan(srcs, n)
	if err != nil {
		t.Fatal(err)
	}
	return p.Nodes
}

func TestTrunkRoadsConnectTiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "three.osm.pbf")
	s := generate(t, 3, out)
	c := readBack(t, out)
	// 3 tiles on a 2-column grid: 0—1 east–west, 0—2 north–south.
	wantPairs := [][2]int{{0, 1}, {0, 2}}
	var pairs [][2]int
	for _, w := range c.ways {
		if w.Tags["highway"] != "trunk" || !strings.HasPrefix(w.Tags["ref"], "ST-") || w.Tags["name"] != "Synthetic trunk "+w.Tags["ref"][3:] {
			continue
		}
		if w.Tags["oneway"] != "" {
			t.Fatalf("trunk %d is tagged oneway=%s", w.ID, w.Tags["oneway"])
		}
		first, last := w.NodeIDs[0], w.NodeIDs[len(w.NodeIDs)-1]
		pairs = append(pairs, [2]int{tileOf(s.Plan, first), tileOf(s.Plan, last)})
		for i := 1; i < len(w.NodeIDs); i++ {
			a, b := c.coord[w.NodeIDs[i-1]], c.coord[w.NodeIDs[i]]
			if d := distance(a, b); d > 550 {
				t.Fatalf("trunk %s: %0.f m between nodes", w.Tags["ref"], d)
			}
		}
		if !joinsRoad(c, w, first) || !joinsRoad(c, w, last) {
			t.Fatalf("trunk %s does not end on a car road of its tiles", w.Tags["ref"])
		}
	}
	slices.SortFunc(pairs, func(a, b [2]int) int { return a[0]*10 + a[1] - b[0]*10 - b[1] })
	if !slices.Equal(pairs, wantPairs) {
		t.Fatalf("trunk roads join tiles %v, want %v", pairs, wantPairs)
	}
}

// joinsRoad reports whether node id is on another way of a connectable class.
func joinsRoad(c *contents, trunk *osm.Way, id int64) bool {
	for _, w := range c.ways {
		if w.ID != trunk.ID && slices.Contains(connectClasses, w.Tags["highway"]) && slices.Contains(w.NodeIDs, id) {
			return true
		}
	}
	return false
}

func TestTilesDoNotOverlap(t *testing.T) {
	out := filepath.Join(t.TempDir(), "four.osm.pbf")
	s := generate(t, 4, out)
	c := readBack(t, out)
	boxes := make([][4]float64, len(s.Plan.Tiles))
	for i := range boxes {
		boxes[i] = [4]float64{999, 999, -999, -999}
	}
	for id, p := range c.coord {
		if i := tileOf(s.Plan, id); i >= 0 {
			b := &boxes[i]
			b[0], b[1], b[2], b[3] = min(b[0], p[0]), min(b[1], p[1]), max(b[2], p[0]), max(b[3], p[1])
		}
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i], boxes[j]
			if a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3] {
				t.Fatalf("tiles %d %v and %d %v overlap", i, a, j, b)
			}
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.osm.pbf"), filepath.Join(dir, "b.osm.pbf")
	generate(t, 3, a)
	generate(t, 3, b)
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Fatalf("two runs differ (%d and %d bytes)", len(x), len(y))
	}
}

func TestNodesTargetPicksFewestTiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "n.osm.pbf")
	one := generate(t, 1, out).Nodes
	s, err := Generate(context.Background(), Options{Sources: testSources(t), Nodes: 2*one + 1, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	// Two tiles (Monaco + Stockholm, plus a trunk road) may or may not reach
	// 2×Monaco+1; the choice must be the first count that does.
	if s.Nodes < 2*one+1 {
		t.Fatalf("%d tiles give %d nodes, below the target %d", s.Tiles, s.Nodes, 2*one+1)
	}
	if s.Tiles > 1 && planNodes(t, s.Tiles-1) >= 2*one+1 {
		t.Fatalf("%d tiles already reach the target", s.Tiles-1)
	}
}
