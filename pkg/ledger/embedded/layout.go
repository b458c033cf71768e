package embedded

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
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
//	usagedays account id + 0x00 + yyyymmdd + 0x00 + operation -> OperationTotals (version 2, usagedays.go)
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
	Status    ledger.AccountStatus              `json:"status"`
	Balance   int64                             `json:"balance"`
	Caps      ledger.Caps                       `json:"caps"`
	Spend     shared.Spend                      `json:"spend"`
	Charged   int64                             `json:"charged"`
	Requests  int64                             `json:"requests"`
	Ops       map[string]ledger.OperationTotals `json:"ops"`
	CreatedAt time.Time                         `json:"created_at"`
	// Pruned is the credits of the account's usage records deleted by
	// retention (retention.go): Verify counts them with the records.
	Pruned int64 `json:"pruned,omitempty"`
}

type keyRecord struct {
	AccountID string         `json:"account_id"`
	Kind      ledger.KeyKind `json:"kind"`
	Hash      []byte         `json:"hash"`
	RateLimit int            `json:"rate_limit"`
	CreatedAt time.Time      `json:"created_at"`
	RevokedAt *time.Time     `json:"revoked_at,omitempty"`
}

type grantRecord struct {
	Credits int64     `json:"credits"`
	At      time.Time `json:"at"`
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
		return rec, fmt.Errorf("account %s: %w", accountID, ledger.ErrUnknownAccount)
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

// The usagedays bucket (schema version 2) sums each account's charges per
// UTC day and operation, so that a usage report reads a few keys per day
// instead of every usage record of the ledger:
//
//	usagedays  account id + 0x00 + yyyymmdd (8 digits) + 0x00 + operation -> OperationTotals
//
// The applier keeps it in step with the usage bucket, in the same
// transactions (applyRecords); migrating a version-1 file builds it from the
// usage records once. Verify checks that the two agree.
const bucketUsageDays = "usagedays"
