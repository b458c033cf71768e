package roadops

import (
	"context"
	"time"
)

// The embedded store's Store methods: each reads or writes through
// embedded.read and embedded.write (embedded.go).

func (s *embedded) Add(ctx context.Context, op Operation, who string) (Operation, error) {
	return addOne(ctx, s.AddAll, op, who)
}

func (s *embedded) AddAll(ctx context.Context, ops []Operation, who string) ([]Operation, error) {
	drafts, t, err := newDrafts(ops)
	if err != nil {
		return nil, err
	}
	err = s.write(ctx, func(st *memState) (*journalRecord, error) {
		rec := &journalRecord{}
		for i, d := range drafts {
			rec.Changes = append(rec.Changes, Change{Seq: st.lastSeq + int64(i) + 1, At: t, Who: who, Action: ActionAdd, Operation: d})
		}
		return rec, nil
	})
	if err != nil {
		return nil, err
	}
	return drafts, nil
}

func (s *embedded) Review(ctx context.Context, id, who string) (Operation, error) {
	return s.transition(ctx, id, who, ActionReview)
}

func (s *embedded) Withdraw(ctx context.Context, id, who string) (Operation, error) {
	return s.transition(ctx, id, who, ActionWithdraw)
}

func (s *embedded) transition(ctx context.Context, id, who, action string) (Operation, error) {
	var out Operation
	err := s.write(ctx, func(st *memState) (*journalRecord, error) {
		op, err := st.get(id)
		if err != nil {
			return nil, err
		}
		t := now()
		next, changed, err := transition(op, action, t)
		out = next
		if err != nil || !changed {
			return nil, err
		}
		return &journalRecord{Changes: []Change{{Seq: st.lastSeq + 1, At: t, Who: who, Action: action, Operation: next}}}, nil
	})
	return out, err
}

func (s *embedded) Get(ctx context.Context, id string) (op Operation, err error) {
	err = s.read(ctx, func(st *memState) error {
		op, err = st.get(id)
		return err
	})
	return op, err
}

func (s *embedded) List(ctx context.Context) (ops []Operation, err error) {
	err = s.read(ctx, func(st *memState) error {
		ops = st.list()
		return nil
	})
	return ops, err
}

func (s *embedded) History(ctx context.Context, id string) (cs []Change, err error) {
	err = s.read(ctx, func(st *memState) error {
		cs, err = st.history(id)
		return err
	})
	return cs, err
}

// Version is the sequence number of the last change: a stat of the file
// when nothing was written since the last call.
func (s *embedded) Version(ctx context.Context) (v int64, err error) {
	err = s.read(ctx, func(st *memState) error {
		v = st.lastSeq
		return nil
	})
	return v, err
}

func (s *embedded) Report(ctx context.Context, dataVersion string, results []Resolution) error {
	if len(results) == 0 {
		return nil
	}
	stamped := stampResolutions(dataVersion, results)
	return s.write(ctx, func(st *memState) (*journalRecord, error) {
		// Only what changed is written: replicas report every operation
		// at every swap and on every change, mostly the same outcomes.
		var fresh []Resolution
		for _, r := range stamped {
			if last, ok := st.res[resKey{r.ID, r.DataVersion}]; !ok || !sameOutcome(last, r) {
				fresh = append(fresh, r)
			}
		}
		if len(fresh) == 0 {
			return nil, nil
		}
		return &journalRecord{Report: &journalReport{DataVersion: dataVersion, Results: fresh}}, nil
	})
}

func (s *embedded) Resolutions(ctx context.Context) (rs []Resolution, err error) {
	err = s.read(ctx, func(st *memState) error {
		rs = st.resolutions()
		return nil
	})
	return rs, err
}

// stampResolutions copies results with their data version and, where
// zero, their time set.
func stampResolutions(dataVersion string, results []Resolution) []Resolution {
	t := now()
	out := make([]Resolution, len(results))
	for i, r := range results {
		r.DataVersion = dataVersion
		if r.At.IsZero() {
			r.At = t
		}
		r.At = r.At.UTC().Truncate(time.Microsecond)
		out[i] = r
	}
	return out
}
