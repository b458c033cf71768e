package embedded

import "fmt"

// checkInvariants asserts the committer's ordering invariants, in builds
// with the invariants tag (go test -tags invariants; make test runs the
// crash and concurrency tests so), as pebble's internal/invariants does:
// they cost a walk of the unacknowledged records on every change, too much
// for a server, and a broken one would otherwise show only as a lost or
// early acknowledgement under a rare interleaving. Without the tag the
// constant is false and the call compiles to nothing. Call with c.mu held.
//
//   - written >= synced: nothing is durable before it is written;
//   - syncs are acknowledged in start order: the syncs not yet acknowledged
//     cover ever larger prefixes, none smaller than what is acknowledged;
//   - unsynced jobs are in journal order, all written, none acknowledged.
func (c *committer) checkInvariants() {
	if !invariantsEnabled {
		return
	}
	if c.written < c.synced {
		panic(fmt.Sprintf("ledger invariant: written %d < synced %d", c.written, c.synced))
	}
	prev := c.synced
	for i, run := range c.syncs {
		if run.target < prev || run.target > c.written {
			panic(fmt.Sprintf("ledger invariant: sync %d of %d covers %d, after %d (synced %d, written %d)",
				i, len(c.syncs), run.target, prev, c.synced, c.written))
		}
		prev = run.target
	}
	prev = c.synced
	for i, job := range c.unsynced {
		if job.end <= prev || job.end > c.written || job.settled() {
			panic(fmt.Sprintf("ledger invariant: unsynced record %d of %d ends at %d, after %d (synced %d, written %d, settled %v)",
				i, len(c.unsynced), job.end, prev, c.synced, c.written, job.settled()))
		}
		prev = job.end
	}
}
