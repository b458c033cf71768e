package resolve

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/mapsco/maps/pkg/roadops"
	"github.com/mapsco/maps/pkg/route"
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
	last  Applied          // that resolution's counts
	tell  func(Applied)    // SetReporter's; nil: nobody
	// shapes are the ways' shapes where operations by way id last
	// resolved by it: from this process's resolutions, and once from the
	// store's reports (another replica's, or before a restart).
	shapes Shapes
	stored bool // the store's shapes were read
	// placed are the reviewed operations that resolved onto rel, with
	// their segments, for the playground's map (Placed).
	placed []Placed
}

// Applied counts one resolution of the operations onto a release: those
// placed on its roads and those that no longer resolve there (not applied).
type Applied struct {
	DataVersion         string
	Applied, Unresolved int
}

// SetReporter has f told the counts of every resolution from now on (a
// metric), and at once those of the last one, if any.
func (l *Live) SetReporter(f func(Applied)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tell = f
	if l.rel != nil {
		f(l.last)
	}
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
	l.readShapes()
	results := Apply(rel.Network, rel.Routers, l.ops, l.shapes)
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
		reports[i] = roadops.Resolution{ID: r.ID, DataVersion: version, Resolved: r.Resolved, Segments: r.Segments, Detail: r.Detail, Shape: r.Shape}
		if r.Shape != nil {
			l.shapes[r.ID] = r.Shape
		}
		if !r.Resolved {
			unresolved++
			l.log.Warn("road operation does not resolve on this release: not applied", "id", r.ID, "data_version", version, "detail", r.Detail)
		}
	}
	l.log.Info("road operations applied", "data_version", version, "reviewed", len(results), "unresolved", unresolved,
		"took_ms", time.Since(start).Milliseconds())
	for name, r := range rel.Routers {
		go l.logCustomized(name, version, r, start)
	}
	l.last = Applied{DataVersion: version, Applied: len(results) - unresolved, Unresolved: unresolved}
	if l.tell != nil {
		l.tell(l.last)
	}
	if l.store != nil && len(reports) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := l.store.Report(ctx, version, reports); err != nil {
			l.log.Error("road operations: the resolution report was not stored", "err", err.Error())
		}
	}
}

// logCustomized logs when profile's hierarchy has been customized under
// the operations just applied (route.Router.AwaitCustomized): from then on
// its answers under them take no repair. A newer change's customization
// is waited for instead (it cancels this one).
func (l *Live) logCustomized(profile, version string, r *route.Router, start time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := r.AwaitCustomized(ctx); err != nil {
		l.log.Warn("road operations: hierarchy not customized, answers repaired", "profile", profile, "data_version", version, "err", err.Error())
		return
	}
	if len(r.Operations()) > 0 {
		l.log.Info("road operations: hierarchy customized", "profile", profile, "data_version", version, "took_ms", time.Since(start).Milliseconds())
	}
}

// readShapes reads, once a store is there, the shapes operations by way id
// had where they last resolved by it (the newest report that has one).
func (l *Live) readShapes() {
	if l.shapes == nil {
		l.shapes = Shapes{}
	}
	if l.stored || l.store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rs, err := l.store.Resolutions(ctx)
	if err != nil {
		l.log.Error("road operations: the shapes of earlier resolutions were not read; operations by a way id a new release lacks stay unresolved", "err", err.Error())
		return
	}
	l.stored = true
	stored, newest := Shapes{}, map[string]time.Time{}
	for _, r := range rs {
		if _, have := stored[r.ID]; len(r.Shape) >= 2 && (!have || r.At.After(newest[r.ID])) {
			stored[r.ID], newest[r.ID] = r.Shape, r.At
		}
	}
	for id, shape := range stored {
		if _, have := l.shapes[id]; !have { // this process's own are as new
			l.shapes[id] = shape
		}
	}
}
