package ledger

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Embedded store layout (schema version 2). Values are JSON.
//
//	meta      "schema_version" -> decimal version
//	accounts  account id -> accountRecord (balance, caps, spend counters, totals)
//	keys      key id -> keyRecord (account, kind, SHA-256, rate, revocation)
//	keyhash   SHA-256 of the key -> key id
//	acctkeys  account id + 0x00 + key id -> empty (keys of an account)
//	grants    account id + 0x00 + 8-byte big-endian sequence -> grantRecord
//	usage     request id -> Usage
//	usagedays account id + 0x00 + yyyymmdd + 0x00 + operation -> OperationTotals (version 2, bolt_usagedays.go)
const (
	bucketMeta     = "meta"
	bucketAccounts = "accounts"
	bucketKeys     = "keys"
	bucketKeyHash  = "keyhash"
	bucketAcctKeys = "acctkeys"
	bucketGrants   = "grants"
	bucketUsage    = "usage"

	boltSchemaVersion = 2
	metaSchemaVersion = "schema_version"
)

type accountRecord struct {
	Status    AccountStatus              `json:"status"`
	Balance   int64                      `json:"balance"`
	Caps      Caps                       `json:"caps"`
	Spend     spend                      `json:"spend"`
	Charged   int64                      `json:"charged"`
	Requests  int64                      `json:"requests"`
	Ops       map[string]OperationTotals `json:"ops"`
	CreatedAt time.Time                  `json:"created_at"`
}

type keyRecord struct {
	AccountID string     `json:"account_id"`
	Kind      KeyKind    `json:"kind"`
	Hash      []byte     `json:"hash"`
	RateLimit int        `json:"rate_limit"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

type grantRecord struct {
	Credits int64     `json:"credits"`
	At      time.Time `json:"at"`
}

// boltStore is the embedded ledger. Holds live in memory (see live.go);
// charges go through the group commit into the journal (groupcommit.go,
// journal.go) and, once committed, in the background into bbolt
// (apply.go).
type boltStore struct {
	db        *bolt.DB
	path      string
	opts      Options
	auth      *authCache
	live      *liveAccounts
	journal   *journal
	apply     *applier
	commits   *committer
	nextHold  atomic.Int64
	closeOnce atomic.Bool
}

func openBolt(ctx context.Context, path string, opts Options) (*boltStore, error) {
	if opts.MustExist {
		if err := checkBoltExists(path); err != nil {
			return nil, err
		}
	}
	// The freelist is kept as a map (cheaper per transaction than bbolt's
	// array) and written with every commit. Not writing it (NoFreelistSync)
	// would make bbolt rebuild it at every Open by reading every page: the
	// ledger grows by a usage record per charged request (about 300 bytes),
	// and opening a 376 MB ledger took 9 s with a cold cache, against 0.2 s
	// with the freelist written (BENCHMARKS.md, "The ledger's freelist").
	// Charges reach bbolt in batches (applier), so writing it costs nothing
	// measurable per request.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.LockTimeout, FreelistType: bolt.FreelistMapType})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("opening ledger %s: %w", path, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: opening ledger %s: %v", ErrUnavailable, path, err)
	}
	s := &boltStore{
		db:   db,
		path: path,
		opts: opts,
		auth: newAuthCache(opts.AuthCacheTTL, opts.Now),
		live: newLiveAccounts(),
	}
	if err := s.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if s.journal, err = s.openJournal(opts.JournalSize); err != nil {
		db.Close()
		return nil, err
	}
	newest, err := newestUsage(db)
	if err != nil {
		s.journal.close()
		db.Close()
		return nil, fmt.Errorf("%w: opening ledger %s: %v", ErrUnavailable, path, err)
	}
	s.apply = newApplier(db, newest)
	s.commits = newCommitter(s.journal, db, s.apply, opts.MaxBatch, opts.Sync)
	return s, nil
}

// Migrate creates the buckets and records the schema version, running the
// steps from the file's version to this binary's in one transaction:
// version 2 adds the usagedays bucket, built from the usage records.
func (s *boltStore) Migrate(ctx context.Context) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
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
				return fmt.Errorf("%w: file has version %d, binary knows %d", ErrSchemaTooNew, have, boltSchemaVersion)
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
	err := s.closeJournal()
	if cerr := s.db.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("closing ledger %s: %w", s.path, cerr)
	}
	return err
}

// view and update wrap bbolt transactions, marking storage failures as
// ErrUnavailable while passing the ledger's own errors through.
func (s *boltStore) view(what string, fn func(*bolt.Tx) error) error {
	return s.classify(what, s.db.View(fn))
}

func (s *boltStore) update(what string, fn func(*bolt.Tx) error) error {
	return s.classify(what, s.db.Update(fn))
}

func (s *boltStore) classify(what string, err error) error {
	switch {
	case err == nil:
		return nil
	case isLedgerError(err):
		return fmt.Errorf("%s: %w", what, err)
	default:
		return fmt.Errorf("%w: %s in %s: %v", ErrUnavailable, what, s.path, err)
	}
}

// isLedgerError reports whether err is one of this package's own answers
// (as opposed to a storage failure).
func isLedgerError(err error) bool {
	for _, target := range []error{ErrUnknownAccount, ErrUnknownKeyID, ErrUnknownRequest, ErrInvalidArgument,
		ErrInsufficientCredits, ErrAccountSuspended, ErrDuplicateRequest, ErrUnknownKey, ErrRevokedKey, ErrSchemaTooNew} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

func getJSON(b *bolt.Bucket, key string, v any) (bool, error) {
	raw := b.Get([]byte(key))
	if raw == nil {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("decoding record %q: %w", key, err)
	}
	return true, nil
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding record %q: %w", key, err)
	}
	return b.Put(key, raw)
}

func loadAccount(tx *bolt.Tx, accountID string) (accountRecord, error) {
	var rec accountRecord
	found, err := getJSON(tx.Bucket([]byte(bucketAccounts)), accountID, &rec)
	if err != nil {
		return rec, err
	}
	if !found {
		return rec, fmt.Errorf("account %s: %w", accountID, ErrUnknownAccount)
	}
	return rec, nil
}

func storeAccount(tx *bolt.Tx, accountID string, rec accountRecord) error {
	return putJSON(tx.Bucket([]byte(bucketAccounts)), []byte(accountID), rec)
}

// indexKey joins an account id and a suffix into a key of the acctkeys or
// grants bucket; ids never contain 0x00.
func indexKey(accountID string, suffix []byte) []byte {
	k := make([]byte, 0, len(accountID)+1+len(suffix))
	k = append(append(append(k, accountID...), 0), suffix...)
	return k
}

func grantKey(accountID string, seq uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seq)
	return indexKey(accountID, b[:])
}
