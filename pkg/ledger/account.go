package ledger

import "time"

// AccountStatus is whether an account may be served.
type AccountStatus string

// Account statuses.
const (
	StatusActive    AccountStatus = "active"
	StatusSuspended AccountStatus = "suspended"
)

// KeyInfo is what Authenticate learns about a valid key. It may be up to
// Options.AuthCacheTTL old; Reserve re-checks the status.
type KeyInfo struct {
	KeyID         string
	AccountID     string
	Kind          KeyKind
	AccountStatus AccountStatus
	// RateLimit is the key's requests/second override; 0 = server default.
	RateLimit int
}

// Reservation is credits held for one request. Treat it as an opaque token
// to hand back to Commit or Release; its fields are informative.
type Reservation struct {
	ID        int64
	AccountID string
	KeyID     string
	Operation string
	RequestID string
	Credits   int64
	At        time.Time
}

// Caps are spend limits in credits per UTC day and UTC month; 0 = no cap.
type Caps struct {
	Daily   int64 `json:"daily"`
	Monthly int64 `json:"monthly"`
}

// DefaultDailyCap is the daily spend cap of accounts created without
// explicit caps: spend caps are on by default so that a runaway client
// cannot drain a large balance in a day.
const DefaultDailyCap = 100_000

// DefaultCaps returns the caps given to new accounts by default.
func DefaultCaps() Caps { return Caps{Daily: DefaultDailyCap} }

// NewAccount is the result of CreateAccount: the id and the first key.
type NewAccount struct {
	AccountID string
	Key       IssuedKey
}

// IssuedKey is a freshly issued key. Secret is shown this once only.
type IssuedKey struct {
	KeyID     string  `json:"key_id"`
	AccountID string  `json:"account_id"`
	Kind      KeyKind `json:"kind"`
	RateLimit int     `json:"rate_limit"`
	Secret    Secret  `json:"-"`
}

// Account is an account as the admin sees it.
type Account struct {
	ID        string        `json:"account_id"`
	Status    AccountStatus `json:"status"`
	Balance   int64         `json:"balance"`
	Held      int64         `json:"held"`
	Caps      Caps          `json:"caps"`
	CreatedAt time.Time     `json:"created_at"`
	Usage     UsageTotals   `json:"usage"`
	Keys      []KeySummary  `json:"keys"`
}

// KeySummary describes a key without its secret.
type KeySummary struct {
	KeyID     string    `json:"key_id"`
	Kind      KeyKind   `json:"kind"`
	RateLimit int       `json:"rate_limit"`
	CreatedAt time.Time `json:"created_at"`
	// RevokedAt is when the key stops (or stopped) working: in the future
	// for a key RotateKey replaced, during its grace period.
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

// UsageTotals sums an account's charges (in credits) and requests.
type UsageTotals struct {
	Today       int64                      `json:"today"`
	ThisMonth   int64                      `json:"this_month"`
	AllTime     int64                      `json:"all_time"`
	Requests    int64                      `json:"requests"`
	ByOperation map[string]OperationTotals `json:"by_operation"`
}

// OperationTotals sums one operation's charges over all time.
type OperationTotals struct {
	Credits  int64 `json:"credits"`
	Requests int64 `json:"requests"`
}

// Usage is the record of one charged request.
type Usage struct {
	RequestID string    `json:"request_id"`
	AccountID string    `json:"account_id"`
	KeyID     string    `json:"key_id"`
	Operation string    `json:"operation"`
	Credits   int64     `json:"credits"`
	At        time.Time `json:"at"`
}

// VerifyReport is the result of Verify.
type VerifyReport struct {
	Accounts   int        `json:"accounts"`
	Mismatches []Mismatch `json:"mismatches"`
	// Journal describes the embedded store's journal (nil for
	// PostgreSQL).
	Journal *JournalStatus `json:"journal,omitempty"`
	// Damage lists what the embedded store could not read: bbolt pages
	// that fail bbolt's consistency check or make it fail, records that
	// do not decode, a damaged journal. Empty when the files are sound.
	Damage []string `json:"damage,omitempty"`
}

// OK reports whether every account balanced and nothing was damaged.
func (r VerifyReport) OK() bool { return len(r.Mismatches) == 0 && len(r.Damage) == 0 }

// JournalStatus is what Verify found in the embedded store's journal: the
// records of its current epoch, all intact.
type JournalStatus struct {
	Path    string `json:"path"`
	Epoch   uint64 `json:"epoch"`
	Records int    `json:"records"`
	Bytes   int64  `json:"bytes"`
	Size    int64  `json:"size"`
}

// Mismatch is one account whose books do not balance.
type Mismatch struct {
	AccountID string `json:"account_id"`
	Balance   int64  `json:"balance"`
	Grants    int64  `json:"grants"`
	Charges   int64  `json:"charges"`
	Reason    string `json:"reason"`
}
