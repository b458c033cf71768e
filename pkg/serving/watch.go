package serving

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/mapsco/maps/pkg/release"
)

// Swap outcomes, as reported in SwapEvent.Outcome and counted by mapd's
// release_swaps metric.
const (
	SwapOK      = "ok"
	SwapRefused = "refused"
)

// SwapEvent reports one attempt to serve a new release.
type SwapEvent struct {
	Outcome string        // SwapOK or SwapRefused
	Dir     string        // the release directory tried ("" when none could be resolved)
	From    string        // data_version served before the attempt
	To      string        // data_version served after it (From when refused)
	Err     error         // why it was refused; nil when swapped
	Took    time.Duration // resolve, verify and open
}

// WatchConfig configures a Watcher. Zero values are documented per field.
type WatchConfig struct {
	Data     string        // required: what `mapd serve --data` names (see release.Resolve)
	Holder   *Holder       // required: the releases being served
	Interval time.Duration // how often to look at the current pointer; 0 means only on Reload
	Log      *slog.Logger  // nil discards logs
	OnSwap   func(SwapEvent)
	// Ready, when not nil, is called with a release opened and verified,
	// before it is swapped in: what must hold before the release answers
	// (the road operations in force) is set up here.
	Ready func(*Release)
}

// Watcher swaps the served release when the current pointer of Data moves
// (polled every Interval) or when asked to (SIGHUP). A new release is
// verified completely (Verify: sizes, SHA-256, every section checksum) and
// opened before it is swapped in; a release that fails is refused with a log
// line and the old one keeps serving. The old release is unmapped when its
// last in-flight request is done (see Holder).
//
// A Watcher is not safe for concurrent use: Run serialises polls and
// reload requests in one goroutine.
type Watcher struct {
	cfg WatchConfig
	// lastTried is the directory of the last attempt (or why the pointer did
	// not resolve), so that polling does not verify and log a refused release
	// again every Interval; an explicit reload retries it.
	lastTried string
}

// NewWatcher makes a Watcher; call Run to start it.
func NewWatcher(cfg WatchConfig) (*Watcher, error) {
	if cfg.Holder == nil || cfg.Data == "" {
		return nil, fmt.Errorf("release: WatchConfig needs Data and Holder")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.OnSwap == nil {
		cfg.OnSwap = func(SwapEvent) {}
	}
	return &Watcher{cfg: cfg}, nil
}

// Run polls the current pointer every Interval and reloads on every value
// received from reload, until ctx is done.
func (w *Watcher) Run(ctx context.Context, reload <-chan struct{}) {
	var tick <-chan time.Time
	if w.cfg.Interval > 0 {
		t := time.NewTicker(w.cfg.Interval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			w.Reload(ctx, false)
		case <-reload:
			w.Reload(ctx, true)
		}
	}
}

// Reload swaps to the release the current pointer names if it is not the
// one being served. Unless force is set, a release already refused is not
// tried again. It reports whether an attempt was made, and its outcome.
func (w *Watcher) Reload(ctx context.Context, force bool) (SwapEvent, bool) {
	start := time.Now()
	serving := w.serving()
	dir, err := release.Resolve(w.cfg.Data)
	attempt := dir // what lastTried remembers: the directory, or why none resolved
	if err != nil {
		attempt = "unresolved: " + err.Error()
	} else if dir = canonical(dir); dir == canonical(serving.Dir) {
		if force {
			w.cfg.Log.Info("release reload: current pointer names the release being served", "dir", dir)
		}
		w.lastTried = "" // a release refused before is worth a new try if the pointer names it again
		return SwapEvent{}, false
	}
	if !force && attempt == w.lastTried {
		return SwapEvent{}, false
	}
	w.lastTried = attempt
	ev := SwapEvent{Outcome: SwapRefused, Dir: dir, From: serving.Manifest.DataVersion, To: serving.Manifest.DataVersion}
	var rel *Release
	if err == nil {
		rel, err = w.prepare(dir, serving)
	}
	ev.Took = time.Since(start)
	if err != nil {
		ev.Err = err
		w.cfg.Log.Error("release swap refused; still serving the previous release", "dir", dir,
			"data_version", ev.From, "err", err.Error())
		w.cfg.OnSwap(ev)
		return ev, true
	}
	if w.cfg.Ready != nil {
		w.cfg.Ready(rel)
	}
	old := w.cfg.Holder.Swap(rel)
	ev.Outcome, ev.To = SwapOK, rel.Manifest.DataVersion
	w.cfg.Log.Info("release swapped", "from", ev.From, "to", ev.To, "dir", dir, "took_ms", ev.Took.Milliseconds())
	w.cfg.OnSwap(ev)
	go w.logUnmapped(ctx, old)
	return ev, true
}

// serving returns the release being served. Its Dir and Manifest stay valid
// after the reference is dropped: only the mapping goes away.
func (w *Watcher) serving() *Release {
	rel, done := w.cfg.Holder.Acquire()
	done()
	return rel
}

// prepare verifies and opens the release in dir and checks that it can
// answer everything the serving one does.
func (w *Watcher) prepare(dir string, serving *Release) (*Release, error) {
	if err := release.Verify(dir); err != nil {
		return nil, err
	}
	rel, err := Open(dir)
	if err != nil {
		return nil, err
	}
	if err := compatible(serving, rel); err != nil {
		rel.Close()
		return nil, err
	}
	return rel, nil
}

// compatible refuses a release lacking a profile or the elevation model the
// serving one has: swapping it in would turn those requests into errors.
func compatible(serving, next *Release) error {
	if serving.DEM != nil && next.DEM == nil {
		return fmt.Errorf("release %s: %w: no elevation model, which release %s serves",
			next.Dir, ErrIncompatible, serving.Manifest.DataVersion)
	}
	for name := range serving.Routers {
		if _, ok := next.Routers[name]; !ok {
			return fmt.Errorf("release %s: %w: no %s profile, which release %s serves",
				next.Dir, ErrIncompatible, name, serving.Manifest.DataVersion)
		}
	}
	return nil
}

// logUnmapped notes when a swapped-out release's last request is done.
func (w *Watcher) logUnmapped(ctx context.Context, old *Release) {
	select {
	case <-old.Unmapped():
		w.cfg.Log.Info("release unmapped", "data_version", old.Manifest.DataVersion, "dir", old.Dir)
	case <-ctx.Done():
	}
}

// canonical resolves symlinks so that two names of one release compare equal.
func canonical(dir string) string {
	if dir == "" {
		return ""
	}
	if p, err := filepath.EvalSymlinks(dir); err == nil {
		return p
	}
	return filepath.Clean(dir)
}

// ErrIncompatible means a release cannot replace the one being served.
var ErrIncompatible = errors.New("release: incompatible with the release being served")
