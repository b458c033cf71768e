//go:build invariants

package ledger

// invariantsEnabled turns on the committer's invariant checks
// (checkInvariants).
const invariantsEnabled = true
