package roadops

import (
	"context"
	"log/slog"
	"time"
)

// DefaultWatchEvery is how often Watch polls by default: a change reaches
// a watcher within this, plus one List, of being made.
const DefaultWatchEvery = 250 * time.Millisecond

// watchCallTimeout bounds one poll, so that a stuck store delays the next
// poll rather than ending the watch.
const watchCallTimeout = 15 * time.Second

// WatchOptions tune WatchWith. The zero value polls every
// DefaultWatchEvery, logs to slog.Default() and reads time.Now.
type WatchOptions struct {
	Every  time.Duration
	Logger *slog.Logger
	Now    func() time.Time
}

// Watch calls apply with every operation (List: every state, every
// window) once at the start, again whenever Version changes, and again at
// the first poll after a reviewed operation's window opens or closes
// (ValidFrom or ValidUntil passes), so that apply can compute what is
// active (Operation.Active at its own time.Now) and be right until its
// next call. It polls every `every` (0: 250 ms), logs errors of the store
// and keeps polling, and returns when ctx ends. apply runs on Watch's
// goroutine: while it runs, no poll happens, so a slow apply delays the
// next change rather than queueing several.
func Watch(ctx context.Context, s Store, every time.Duration, apply func(ops []Operation)) {
	WatchWith(ctx, s, WatchOptions{Every: every}, apply)
}

// WatchWith is Watch with a logger of the caller's.
func WatchWith(ctx context.Context, s Store, opts WatchOptions, apply func(ops []Operation)) {
	if opts.Every <= 0 {
		opts.Every = DefaultWatchEvery
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	w := watcher{store: s, apply: apply, log: opts.Logger, now: opts.Now, last: -1}
	tick := time.NewTicker(opts.Every)
	defer tick.Stop()
	for {
		w.poll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

type watcher struct {
	store   Store
	apply   func([]Operation)
	log     *slog.Logger
	now     func() time.Time
	last    int64     // the version last applied; -1 before the first
	edge    time.Time // the next window edge of the list last applied; zero: none
	failing bool      // the last poll failed (logged once per outage)
}

// poll reads the version and, if it moved, the list; Version is read
// first so that a change made during List is seen at the next poll.
func (w *watcher) poll(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, watchCallTimeout)
	defer cancel()
	v, err := w.store.Version(ctx)
	if err == nil && v == w.last && (w.edge.IsZero() || w.now().Before(w.edge)) {
		w.recovered()
		return
	}
	var ops []Operation
	if err == nil {
		ops, err = w.store.List(ctx)
	}
	if err != nil {
		if ctx.Err() == nil && !w.failing {
			w.log.Error("road operations: cannot read the store; serving the operations read last, retrying", "err", err)
		}
		w.failing = ctx.Err() == nil
		return
	}
	w.recovered()
	at := w.now()
	w.apply(ops)
	w.last, w.edge = v, nextEdge(ops, at)
}

// nextEdge returns the earliest start or end of a reviewed operation's
// window after t, or zero if there is none.
func nextEdge(ops []Operation, t time.Time) time.Time {
	var edge time.Time
	for _, op := range ops {
		if op.State != ReviewReviewed {
			continue
		}
		for _, e := range []*time.Time{op.ValidFrom, op.ValidUntil} {
			if e != nil && e.After(t) && (edge.IsZero() || e.Before(edge)) {
				edge = *e
			}
		}
	}
	return edge
}

func (w *watcher) recovered() {
	if w.failing {
		w.log.Info("road operations: the store answers again")
		w.failing = false
	}
}
