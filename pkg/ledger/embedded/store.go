package embedded

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// boltStore is the embedded ledger. Holds live in memory (see live.go);
// charges go through the group commit into the journal (groupcommit.go,
// journal.go) and, once committed, in the background into bbolt
// (apply.go).
type boltStore struct {
	db      *bolt.DB
	file    *fileGuard // runs every bbolt call: see guard
	path    string
	opts    ledger.Options
	auth    *shared.AuthCache
	live    *liveAccounts
	journal *journal
	apply   *applier
	commits *committer
	open    *openCharges
	health  *health
	// The healer's: sick wakes it, closing stops it, healed says it did.
	sick, closing, healed chan struct{}
	nextHold              atomic.Int64
	closeOnce             atomic.Bool
	// keyed maps the request id of each running request that claimed an
	// Idempotency-Key to that key (boltIdempotency fills it), so that
	// Reserve journals the key with the charge.
	keyed sync.Map
	gate  shared.CloseGate // Close waits for Reserve, Commit and Release (package shared)
}

// Open opens the embedded ledger at path, creating it unless
// opts.MustExist, and migrates it to the latest version. A crashed
// process's journal is replayed; a damaged one is refused (Recover).
func Open(ctx context.Context, path string, opts ledger.Options) (ledger.Store, error) {
	switch {
	case path == "":
		return nil, fmt.Errorf("%w: empty ledger location", ledger.ErrInvalidArgument)
	case shared.IsPostgres(path):
		return nil, fmt.Errorf("%w: a PostgreSQL URL is not an embedded ledger's path (package open chooses the store)", ledger.ErrInvalidArgument)
	}
	s, err := openBolt(ctx, path, withDefaults(opts))
	if err != nil {
		return nil, err
	}
	return s, nil
}

// withDefaults fills in the zero fields of opts, the journal's size
// included.
func withDefaults(opts ledger.Options) ledger.Options {
	opts = shared.Defaults(opts)
	if opts.JournalSize <= 0 {
		opts.JournalSize = defaultJournalSize
	}
	opts.JournalSize = max(opts.JournalSize, minJournalSize)
	return opts
}

func openBolt(ctx context.Context, path string, opts ledger.Options) (*boltStore, error) {
	return openBoltWith(ctx, path, opts, nil)
}

// openBoltWith opens the embedded ledger in order: it checks the bbolt file
// before bbolt maps it (check.go), opens and migrates it, replays the
// journal (replay.go; with rep non-nil, as Recover: past damage), and
// starts the applier and the committer. Each step undoes the ones before
// it if it fails.
func openBoltWith(ctx context.Context, path string, opts ledger.Options, rep *RecoveryReport) (*boltStore, error) {
	db, err := openBoltDB(path, opts)
	if err != nil {
		return nil, err
	}
	s := &boltStore{
		db:   db,
		file: &fileGuard{path: path},
		path: path,
		opts: opts,
		auth: shared.NewAuthCache(opts.AuthCacheTTL, opts.Now),
		live: newLiveAccounts(),
	}
	if err := s.Migrate(ctx); err != nil {
		s.file.closeDB(db)
		return nil, err
	}
	if s.journal, err = s.openJournal(opts.JournalSize, rep); err != nil {
		s.file.closeDB(db)
		return nil, err
	}
	newest, err := newestUsage(s)
	if err != nil {
		s.journal.close()
		s.file.closeDB(db)
		return nil, err
	}
	s.health = &health{log: opts.Logger, path: path}
	s.apply = newApplier(db, s.file, newest, func(err error) { s.health.set(partBooks, err) })
	s.open = newOpenCharges()
	s.commits = newCommitter(s.journal, opts.MaxBatch, opts.Sync, committerHooks{
		wrote: s.open.wrote, full: s.startOver, broke: s.journalBroke, mended: s.journalMended})
	s.sick, s.closing, s.healed = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	go s.heal()
	return s, nil
}

// Migrate creates the buckets and records the schema version, running the
// steps from the file's version to this binary's in one transaction:
// version 2 adds the usagedays bucket, built from the usage records.
func (s *boltStore) Migrate(ctx context.Context) error {
	err := s.update("migrating", func(tx *bolt.Tx) error {
		for _, name := range []string{bucketMeta, bucketAccounts, bucketKeys, bucketKeyHash, bucketAcctKeys, bucketGrants, bucketUsage, bucketUsageDays} {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return fmt.Errorf("creating bucket %s: %w", name, err)
			}
		}
		meta := tx.Bucket([]byte(bucketMeta))
		have := 0
		if v := meta.Get([]byte(metaSchemaVersion)); v != nil {
			var err error
			if have, err = strconv.Atoi(string(v)); err != nil {
				return fmt.Errorf("reading schema version %q: %w", v, err)
			}
			if have > boltSchemaVersion {
				return fmt.Errorf("%w: file has version %d, binary knows %d", ledger.ErrSchemaTooNew, have, boltSchemaVersion)
			}
		}
		if have < 2 {
			if err := buildUsageDays(tx); err != nil {
				return err
			}
		}
		return meta.Put([]byte(metaSchemaVersion), []byte(strconv.Itoa(boltSchemaVersion)))
	})
	if err != nil {
		return fmt.Errorf("migrating ledger %s: %w", s.path, err)
	}
	return nil
}

// Close waits for queued Commits and applies every charge to bbolt, then
// closes the files. Outstanding holds are dropped, which gives their
// credits back.
func (s *boltStore) Close() error {
	if s.closeOnce.Swap(true) {
		return nil
	}
	s.gate.Close()
	err := s.closeJournal()
	if cerr := s.file.closeDB(s.db); cerr != nil && err == nil {
		err = cerr
	}
	return err
}

// view and update wrap bbolt transactions, under guard (a damaged page is
// an error, not a crash), marking storage failures as ErrUnavailable while
// passing the ledger's own errors through.
func (s *boltStore) view(what string, fn func(*bolt.Tx) error) error {
	return s.classify(what, s.file.view(s.db, what, fn))
}

func (s *boltStore) update(what string, fn func(*bolt.Tx) error) error {
	return s.classify(what, s.file.update(s.db, what, fn))
}

func (s *boltStore) classify(what string, err error) error {
	switch {
	case err == nil:
		return nil
	case shared.IsLedgerError(err):
		return fmt.Errorf("%s: %w", what, err)
	default:
		return fmt.Errorf("%w: %s in %s: %w", ledger.ErrUnavailable, what, s.path, err)
	}
}

// newestUsage returns the greatest request id in the usage bucket, for
// newApplier: bbolt keeps keys in order, so it is the last one.
func newestUsage(s *boltStore) (string, error) {
	var newest string
	err := s.view("finding the newest usage record", func(tx *bolt.Tx) error {
		k, _ := tx.Bucket([]byte(bucketUsage)).Cursor().Last()
		newest = string(k)
		return nil
	})
	return newest, err
}
