// Package embedded is the ledger's store for one machine: a bbolt file and
// a write-ahead journal beside it, behind the contract of package ledger
// (package open picks it for any --ledger that is not a PostgreSQL URL).
// One process at a time holds a ledger file: Open waits Options.LockTimeout
// for another holder, then fails with a *LockedError (ErrLocked).
//
// # Files
//
// The embedded store is a pair of files: FILE (bbolt: accounts, keys,
// grants, usage records) and FILE-journal (a preallocated write-ahead log of
// charges and their cancellations, 8 MiB by default). Reserve writes its
// charge to the journal itself, in one write with whatever other charges
// are queued; with SyncCommit, Commit waits for an fdatasync covering it,
// shared with concurrent commits (at most syncDepth in flight), and with
// SyncBackground a goroutine syncs the journal every few milliseconds
// while anything was written (groupcommit.go). A committed charge goes to a
// background applier, which writes charges to bbolt in batches (a
// released one never reaches bbolt), and Open replays into bbolt whatever a
// crashed process left in the journal. Readers of balances and usage (GetAccount, LookupUsage,
// Verify, AddCredits) first wait for the applier, so they see every
// Commit that returned. Copy, move or back up the two files together, with
// mapd stopped; Open refuses a ledger that crashed and lost its journal.
// See journal.go for the format.
//
// # Faults
//
// The embedded store refuses to open damaged files rather than lose or
// invent charges: a damaged journal (ErrCorrupt, a *JournalDamageError
// with the offset and the intact records after it), a journal of another
// ledger (its header names the ledger's id), an empty or missing bbolt file
// beside a journal, a bbolt file shorter than its pages or with invalid
// meta pages (check.go checks the file before bbolt maps it). Only
// Recover gets past a damaged journal. Every bbolt call runs under guard,
// so a damaged page met later is an ErrCorrupt error, not a panic or a
// SIGBUS. When the disk fails (full), the store refuses charges with
// ErrUnavailable until a write succeeds again, retrying by itself, and
// logs each change of state once (health.go).
//
// Damage found later is an error matching both ErrCorrupt and
// ErrUnavailable (corrupt.go); Recover (recover.go) and Compact
// (compact.go) are the operator's tools for a ledger that is not serving.
package embedded
