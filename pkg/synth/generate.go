package synth

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"
)

// Options configures Generate. Exactly one of Tiles and Nodes is set.
type Options struct {
	Sources []string // PBF extracts to tile, in order; required (see DefaultSources)
	Tiles   int      // number of copies; 0 means choose from Nodes
	Nodes   int64    // target routable nodes: the fewest tiles that reach it
	Out     string   // output PBF path; required. Written to Out+".tmp", then renamed.
	Log     *slog.Logger
}

// Summary describes what Generate wrote.
type Summary struct {
	Out           string        `json:"out"`
	Sources       int           `json:"sources"`
	Tiles         int           `json:"tiles"`
	Nodes         int64         `json:"nodes"`
	Ways          int64         `json:"ways"`
	Relations     int64         `json:"relations"`
	RoutableNodes int64         `json:"routable_nodes"` // nodes referenced by highway ways
	TrunkRoads    int           `json:"trunk_roads"`
	Bytes         int64         `json:"bytes"`
	Elapsed       time.Duration `json:"-"`
	Plan          *Plan         `json:"-"`
}

// Generate writes a synthetic country and returns its summary.
func Generate(ctx context.Context, o Options) (*Summary, error) {
	start := time.Now()
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if len(o.Sources) == 0 || o.Out == "" || (o.Tiles > 0) == (o.Nodes > 0) {
		return nil, errors.New("synth: need sources, an output path, and exactly one of tiles and nodes")
	}
	srcs, err := loadSources(ctx, o.Sources, o.Log)
	if err != nil {
		return nil, err
	}
	n := o.Tiles
	if n == 0 {
		if n, err = tilesFor(srcs, o.Nodes); err != nil {
			return nil, err
		}
	}
	p, err := makePlan(srcs, n)
	if err != nil {
		return nil, err
	}
	size, err := writeFile(ctx, o.Out, srcs, p)
	if err != nil {
		return nil, err
	}
	return &Summary{Out: o.Out, Sources: len(srcs), Tiles: n, Nodes: p.Nodes, Ways: p.Ways, Relations: p.Relations,
		RoutableNodes: p.Nodes, TrunkRoads: len(p.Trunks), Bytes: size, Elapsed: time.Since(start), Plan: p}, nil
}

// loadSources reads and reduces every source and picks its connectors.
func loadSources(ctx context.Context, paths []string, log *slog.Logger) ([]*source, error) {
	srcs := make([]*source, len(paths))
	for i, path := range paths {
		t := time.Now()
		s, err := loadSource(ctx, path)
		if err != nil {
			return nil, err
		}
		if err := s.findEnds(); err != nil {
			return nil, err
		}
		log.Info("source read", "path", path, "routable_nodes", s.numNodes(), "ways", len(s.ways),
			"restrictions", len(s.rels), "elapsed", time.Since(t).Round(time.Millisecond).String())
		srcs[i] = s
	}
	return srcs, nil
}

// tilesFor returns the fewest tiles whose plan has at least target routable
// nodes. Plans are cheap (no data is copied), so it simply counts up.
func tilesFor(srcs []*source, target int64) (int, error) {
	for n := 1; n <= maxRows*maxCols; n++ {
		p, err := makePlan(srcs, n)
		if err != nil {
			return 0, err
		}
		if p.Nodes >= target {
			return n, nil
		}
	}
	return 0, fmt.Errorf("synth: %d routable nodes need more than %d tiles", target, maxRows*maxCols)
}

// writeFile writes the country to path+".tmp" and renames it into place, so
// a reader never sees half a file.
func writeFile(ctx context.Context, path string, srcs []*source, p *Plan) (int64, error) {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return 0, fmt.Errorf("synth: %w", err)
	}
	defer os.Remove(tmp) // fails harmlessly after the rename
	bw := bufio.NewWriterSize(f, 1<<20)
	err = writeCountry(ctx, bw, srcs, p)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("synth: write %s: %w", path, err)
	}
	st, err := os.Stat(tmp)
	if err != nil {
		return 0, fmt.Errorf("synth: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return 0, fmt.Errorf("synth: %w", err)
	}
	return st.Size(), nil
}
