package synth

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/osm"
)

func TestPBFWriterRefusesUnsortedInput(t *testing.T) {
	for name, write := range map[string]func(*PBFWriter) error{
		"node id repeats": func(p *PBFWriter) error {
			p.Node(2, 0, 0, nil)
			return p.Node(2, 0, 0, nil)
		},
		"node after way": func(p *PBFWriter) error {
			p.Way(1, []int64{1, 2}, nil)
			return p.Node(3, 0, 0, nil)
		},
		"way after relation": func(p *PBFWriter) error {
			p.Relation(1, nil, nil)
			return p.Way(1, nil, nil)
		},
		"bad member type": func(p *PBFWriter) error {
			return p.Relation(1, []Member{{"x", 1, ""}}, nil)
		},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := NewPBFWriter(&bytes.Buffer{}, [4]int32{}, program)
			if err != nil {
				t.Fatal(err)
			}
			if write(p) == nil {
				t.Fatal("no error")
			}
		})
	}
}

// TestPBFWriterBlocksAndTags writes more nodes than fit one block, some with
// tags, and reads them back with qedus/osmpbf.
func TestPBFWriterBlocksAndTags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.osm.pbf")
	var buf bytes.Buffer
	p, err := NewPBFWriter(&buf, [4]int32{-10, -10, 10, 10}, program)
	if err != nil {
		t.Fatal(err)
	}
	const n = 2*maxBlockEntities + 5
	for i := int64(1); i <= n; i++ {
		var tags []Tag
		if i%1000 == 0 {
			tags = []Tag{{"barrier", "gate"}, {"access", "private"}}
		}
		if err := p.Node(i*3, int32(i), -int32(i), tags); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Way(7, []int64{3, 6, 9}, []Tag{{"highway", "residential"}}); err != nil {
		t.Fatal(err)
	}
	if err := p.Relation(9, []Member{{"w", 7, "from"}, {"n", 6, "via"}}, []Tag{{"type", "restriction"}}); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var nodes, tagged int64
	var way *osm.Way
	var rel *osm.Relation
	err = osm.Scan(context.Background(), path, osm.Handlers{
		Node: func(nd *osm.Node) error {
			nodes++
			if nd.ID != nodes*3 || geo.Fixed(nd.Lon) != int32(nodes) || geo.Fixed(nd.Lat) != -int32(nodes) {
				t.Fatalf("node %d: got %+v", nodes, nd)
			}
			if len(nd.Tags) > 0 {
				tagged++
				if nd.Tags["barrier"] != "gate" || nd.Tags["access"] != "private" {
					t.Fatalf("node %d tags %v", nd.ID, nd.Tags)
				}
			}
			return nil
		},
		Way:      func(w *osm.Way) error { way = w; return nil },
		Relation: func(r *osm.Relation) error { rel = r; return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if nodes != n || tagged != n/1000 {
		t.Fatalf("%d nodes, %d tagged", nodes, tagged)
	}
	if way == nil || way.ID != 7 || len(way.NodeIDs) != 3 || way.NodeIDs[2] != 9 || way.Tags["highway"] != "residential" {
		t.Fatalf("way %+v", way)
	}
	if rel == nil || len(rel.Members) != 2 || rel.Members[0].ID != 7 || rel.Members[1].Type != osm.NodeMember ||
		rel.Members[1].Role != "via" || rel.Tags["type"] != "restriction" {
		t.Fatalf("relation %+v", rel)
	}
}
