package osm

import (
	"context"
	"errors"
	"testing"

	"github.com/mapsco/maps/pkg/internal/shareddata"
)

func TestScanAndorra(t *testing.T) {
	var nodes, ways, rels, highways, restrictions int
	err := Scan(context.Background(), shareddata.Path(t, "andorra.osm.pbf"), Handlers{
		Node: func(*Node) error { nodes++; return nil },
		Way: func(w *Way) error {
			ways++
			if w.Tags["highway"] != "" {
				highways++
			}
			return nil
		},
		Relation: func(r *Relation) error {
			rels++
			if r.Tags["type"] == "restriction" {
				restrictions++
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Counts from the data README (osmium fileinfo).
	if nodes != 256677 || ways != 13133 || rels != 289 || highways != 4981 || restrictions != 65 {
		t.Fatalf("nodes %d ways %d relations %d highways %d restrictions %d", nodes, ways, rels, highways, restrictions)
	}
}

func TestScanStopsOnHandlerError(t *testing.T) {
	stop := errors.New("stop")
	seen := 0
	err := Scan(context.Background(), shareddata.Path(t, "andorra.osm.pbf"), Handlers{Way: func(*Way) error { seen++; return stop }})
	if !errors.Is(err, stop) || seen != 1 {
		t.Fatalf("err %v after %d ways", err, seen)
	}
}

func TestScanMissingFile(t *testing.T) {
	if err := Scan(context.Background(), "no-such.pbf", Handlers{}); err == nil {
		t.Fatal("no error for a missing file")
	}
}
