//go:build invariants

package embedded

// invariantsEnabled turns on the committer's invariant checks
// (checkInvariants).
const invariantsEnabled = true
