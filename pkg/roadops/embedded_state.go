package roadops

import (
	"fmt"
	"slices"
	"strings"
)

// memState is what the embedded store's journal says, replayed in memory.
type memState struct {
	header  bool
	ops     map[string]Operation
	order   []string // ids by creation
	changes []Change
	res     map[resKey]Resolution
	lastSeq int64
}

type resKey struct{ id, dataVersion string }

func newMemState() *memState {
	return &memState{ops: map[string]Operation{}, res: map[resKey]Resolution{}}
}

// apply replays one record; off is its offset, for errors.
func (s *memState) apply(r journalRecord, off int64) error {
	switch {
	case r.Header != nil:
		if s.header || r.Header.Format != journalFormat {
			return fmt.Errorf("%w: unexpected header at offset %d", ErrCorrupt, off)
		}
		if r.Header.Version > journalVersion {
			return fmt.Errorf("%w: the file's format version %d is newer than this binary's %d", ErrCorrupt, r.Header.Version, journalVersion)
		}
		s.header = true
		return nil
	case !s.header:
		return fmt.Errorf("%w: no header at the start: not a road operations file", ErrCorrupt)
	case r.Report != nil:
		for _, res := range r.Report.Results {
			s.res[resKey{res.ID, res.DataVersion}] = res
		}
		return nil
	}
	for _, c := range r.Changes {
		if c.Seq <= s.lastSeq {
			return fmt.Errorf("%w: change %d at offset %d follows change %d", ErrCorrupt, c.Seq, off, s.lastSeq)
		}
		if _, known := s.ops[c.Operation.ID]; !known {
			s.order = append(s.order, c.Operation.ID)
		}
		s.ops[c.Operation.ID] = c.Operation
		s.changes = append(s.changes, c)
		s.lastSeq = c.Seq
	}
	return nil
}

func (s *memState) get(id string) (Operation, error) {
	op, ok := s.ops[id]
	if !ok {
		return Operation{}, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return op.clone(), nil
}

func (s *memState) list() []Operation {
	out := make([]Operation, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.ops[id].clone())
	}
	return out
}

func (s *memState) history(id string) ([]Change, error) {
	if _, ok := s.ops[id]; id != "" && !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	out := []Change{}
	for _, c := range s.changes {
		if id == "" || c.Operation.ID == id {
			c.Operation = c.Operation.clone()
			out = append(out, c)
		}
	}
	return out, nil
}

func (s *memState) resolutions() []Resolution {
	out := make([]Resolution, 0, len(s.res))
	for _, r := range s.res {
		out = append(out, r)
	}
	sortResolutions(out)
	return out
}

// sortResolutions orders reports by operation id, then data version.
func sortResolutions(rs []Resolution) {
	slices.SortFunc(rs, func(a, b Resolution) int {
		if c := strings.Compare(a.ID, b.ID); c != 0 {
			return c
		}
		return strings.Compare(a.DataVersion, b.DataVersion)
	})
}
