// Package osm streams an OpenStreetMap PBF file into plain nodes, ways and
// relations, in file order, using github.com/qedus/osmpbf.
//
// The compiler reads a file twice (ways and relations first, to learn which
// nodes matter; then nodes) instead of holding every node of the file in
// memory: on a country most nodes are building outlines and land use.
//
// Values handed to callbacks (tags maps, node id slices) belong to the
// callback for as long as it keeps them; the reader does not reuse them.
package osm

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/qedus/osmpbf"
)

// Node, Way, Relation and Member are the decoder's own types: they are
// already plain data, and re-declaring them would only copy.
type (
	Node     = osmpbf.Node
	Way      = osmpbf.Way
	Relation = osmpbf.Relation
	Member   = osmpbf.Member
)

// Member types.
const (
	NodeMember     = osmpbf.NodeType
	WayMember      = osmpbf.WayType
	RelationMember = osmpbf.RelationType
)

// Handlers receives the elements of a pass; a nil handler skips that kind.
// A handler's error stops the pass and is returned.
type Handlers struct {
	Node     func(*Node) error
	Way      func(*Way) error
	Relation func(*Relation) error
}

// Scan reads every element of the PBF at path and calls the matching handler,
// in file order. It checks ctx between elements.
func Scan(ctx context.Context, path string, h Handlers) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("osm: %w", err)
	}
	defer f.Close()
	d := osmpbf.NewDecoder(f)
	d.SetBufferSize(osmpbf.MaxBlobSize)
	if err := d.Start(runtime.GOMAXPROCS(0)); err != nil {
		return fmt.Errorf("osm: start decoding %s: %w", path, err)
	}
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		v, err := d.Decode()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("osm: decode %s: %w", path, err)
		}
		if err := dispatch(v, h); err != nil {
			return err
		}
	}
}

func dispatch(v any, h Handlers) error {
	switch e := v.(type) {
	case *osmpbf.Node:
		if h.Node != nil {
			return h.Node(e)
		}
	case *osmpbf.Way:
		if h.Way != nil {
			return h.Way(e)
		}
	case *osmpbf.Relation:
		if h.Relation != nil {
			return h.Relation(e)
		}
	}
	return nil
}
