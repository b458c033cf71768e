package ledger

import (
	"fmt"
	"log/slog"
	"time"
)

// Options tune a Store. The zero value is ready to use.
type Options struct {
	// AuthCacheTTL is how long a successful Authenticate is remembered:
	// the bound on how late a revocation or suspension made by another
	// process is noticed. 0 means 1 s; negative disables the cache.
	AuthCacheTTL time.Duration
	// HoldTTL is how long a PostgreSQL reservation may stay outstanding
	// before any replica gives its credits back (it must exceed the
	// longest request). 0 means 10 minutes. The embedded store keeps holds
	// in memory and ignores it.
	HoldTTL time.Duration
	// LockTimeout is how long the embedded store waits for the file lock
	// held by another process before failing with ErrLocked. 0 means 1 s.
	LockTimeout time.Duration
	// MaxBatch caps how many charges the embedded store writes to its
	// journal in one write. 0 means 1024.
	MaxBatch int
	// JournalSize is the size in bytes of the embedded store's journal
	// (FILE-journal), preallocated when it is created; when it is full the
	// store applies it to bbolt and starts it over. 0 means 8 MiB (some
	// 30,000 charges); smaller values are raised to 64 KiB. An existing
	// larger journal is kept at its size.
	JournalSize int64
	// Sync says when the embedded store's Commit returns: SyncBackground
	// (the default) or SyncCommit. The PostgreSQL store always waits for
	// its server's commit (synchronous_commit as the server sets it).
	Sync Sync
	// Now is the clock, for tests. nil means time.Now.
	Now func() time.Time
	// Logger receives the embedded store's few messages: a journal
	// converted to the current format, and the store going down (ERROR)
	// and coming back (INFO) when its disk fails and recovers. nil
	// discards them.
	Logger *slog.Logger
	// MustExist refuses to create a ledger: Open fails with ErrNoLedger
	// when the embedded file does not exist or the PostgreSQL schema holds
	// no ledger yet. The default (false) creates one, as a new ledger needs.
	MustExist bool
}

// Sync says when the embedded store acknowledges a charge: whether Commit
// waits for the journal's fdatasync or only for its write.
type Sync int

const (
	// SyncBackground: Commit returns once the charge is written to the
	// journal, which is in the kernel's hands from then on: it survives
	// the death of the process (a crash, kill -9), not of the machine.
	// The journal is fdatasynced continuously in the background, each sync
	// starting as soon as the previous one ends, so a power loss or kernel
	// crash loses at most the charges written during the last sync or two
	// (a millisecond or so on this machine's disk: requests served, never
	// charged). Cancellations (Release) still wait for their sync, so no
	// power loss can leave a failed request charged.
	SyncBackground Sync = iota
	// SyncCommit: Commit returns once the charge is fdatasynced (fsync on
	// commit, shared by concurrent commits), which survives a power loss.
	// Every answer then waits for a disk flush: with few clients, each
	// with one request in flight, that caps throughput near one answer
	// per client per flush (docs/benchmarks-history.md, "When a charge is durable").
	SyncCommit
)

// ParseSync reads a Sync from its name, "background" or "commit".
func ParseSync(name string) (Sync, error) {
	switch name {
	case "background":
		return SyncBackground, nil
	case "commit":
		return SyncCommit, nil
	}
	return 0, fmt.Errorf("%w: ledger sync %q: want background or commit", ErrInvalidArgument, name)
}

// String returns the name ParseSync reads.
func (s Sync) String() string {
	if s == SyncCommit {
		return "commit"
	}
	return "background"
}
