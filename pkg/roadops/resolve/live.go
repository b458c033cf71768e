package resolve

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/mapsco/maps/pkg/roadops"
	"github.com/mapsco/maps/pkg/serving"
)

// Live keeps the road operations last published and the release being
// served in step: a change of operations (Publish, from roadops.Watch) is
// resolved onto the release serving, and a release about to serve (Ready,
// at start and before every swap) gets the operations resolved onto it
// before it answers. Each resolution is logged, and reported to the store
// so that `mapd operations list` shows it per data_version. Safe for
// concurrent use.
type Live struct {
	store roadops.Store // where resolutions are reported; nil: nowhere
	log   *slog.Logger
	mu    sync.Mutex
	ops   []roadops.Operation
	rel   *serving.Release // the release resolved onto last
	// placed are the reviewed operations that resolved onto rel, with
	// their segments, for the playground's map (Placed).
	placed []Placed
}

// Placed is a reviewed operation and the segments of a release it was
// placed on.
type Placed struct {
	Op   roadops.Operation
	Segs []uint32
}

// Placed returns the data version of the release the operations were last
// resolved onto and those of them active at now that resolved there.
func (l *Live) Placed(now time.Time) (dataVersion string, active []Placed) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rel == nil {
		return "", nil
	}
	for _, p := range l.placed {
		if p.Op.Active(now) {
			active = append(active, p)
		}
	}
	return l.rel.Manifest.DataVersion, active
}

// NewLive returns a Live reporting to store (nil for none) and logging to
// log (nil: discard).
func NewLive(store roadops.Store, log *slog.Logger) *Live {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Live{store: store, log: log}
}

// SetStore sets the store resolutions are reported to (one opened after
// Live was made, when it could not be at first).
func (l *Live) SetStore(s roadops.Store) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.store = s
}

// Publish applies ops, every operation the store holds, to the release
// being served.
func (l *Live) Publish(ops []roadops.Operation) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ops = slices.Clone(ops)
	if l.rel != nil {
		l.apply(l.rel)
	}
}

// Ready applies the operations to rel, a release about to serve.
func (l *Live) Ready(rel *serving.Release) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rel = rel
	l.apply(rel)
}

// apply resolves l.ops onto rel's routers, logs and reports the results.
func (l *Live) apply(rel *serving.Release) {
	start := time.Now()
	results := Apply(rel.Network, rel.Routers, l.ops)
	version := rel.Manifest.DataVersion
	unresolved := 0
	reports := make([]roadops.Resolution, len(results))
	byID := map[string]roadops.Operation{}
	for _, op := range l.ops {
		byID[op.ID] = op
	}
	l.placed = l.placed[:0:0]
	for i, r := range results {
		if r.Resolved {
			l.placed = append(l.placed, Placed{Op: byID[r.ID], Segs: r.Segs})
		}
		reports[i] = roadops.Resolution{ID: r.ID, DataVersion: version, Resolved: r.Resolved, Segments: r.Segments, Detail: r.Detail}
		if !r.Resolved {
			unresolved++
			l.log.Warn("road operation does not resolve on this release: not applied", "id", r.ID, "data_version", version, "detail", r.Detail)
		}
	}
	l.log.Info("road operations applied", "data_version", version, "reviewed", len(results), "unresolved", unresolved,
		"took_ms", time.Since(start).Milliseconds())
	if l.store != nil && len(reports) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := l.store.Report(ctx, version, reports); err != nil {
			l.log.Error("road operations: the resolution report was not stored", "err", err.Error())
		}
	}
}
