//go:build !invariants

package embedded

// invariantsEnabled is false without the invariants build tag: the checks
// compile to nothing (see checkInvariants).
const invariantsEnabled = false
