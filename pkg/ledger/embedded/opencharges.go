package embedded

import (
	"sync"
)

// openCharges are the charges written in the journal's current epoch whose
// requests have neither committed nor been released. When the journal
// starts over they are written again at the start of the new epoch, so that
// a crash still finds the charges of the requests in flight.
type openCharges struct {
	mu   sync.Mutex
	jobs map[*commitJob]struct{}
}

func newOpenCharges() *openCharges {
	return &openCharges{jobs: make(map[*commitJob]struct{})}
}

// wrote is the committer's hook: the charges of a write are open from
// before they are acknowledged.
func (o *openCharges) wrote(jobs []*commitJob) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, job := range jobs {
		if !job.rec.Cancel {
			o.jobs[job] = struct{}{}
		}
	}
}

// charge settles a charge its request committed: the applier writes it to
// bbolt, and readers that follow (GetAccount, LookupUsage) find it. While
// the journal starts over it holds o.mu, so charge, and the 200 after it,
// wait until the charge's new copy is durable.
func (o *openCharges) charge(job *commitJob, apply *applier) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.jobs, job) // in one step with the hand-over: a start-over carries it, or applies it
	apply.add(job.rec)
}

// void settles a charge that will not be applied: its request was
// released, or its record failed. Its request id is free again.
func (o *openCharges) void(job *commitJob, apply *applier) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.jobs, job)
	if job.claimed {
		job.claimed = false
		apply.unclaim(job.rec.RequestID)
	}
}
