package admin

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// The wire format: one request or response per line.
type request struct {
	Op   string          `json:"op"`
	Args json.RawMessage `json:"args,omitempty"`
}

type response struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *wireError      `json:"error,omitempty"`
}

// wireError is an error as the ledger gave it: its message, and the code
// of the ledger sentinel it wraps ("" for none).
type wireError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Op names, one per ledger.Admin method.
const (
	opCreateAccount = "create_account"
	opGetAccount    = "get_account"
	opSuspend       = "suspend"
	opRestore       = "restore"
	opAddCredits    = "add_credits"
	opIssueKey      = "issue_key"
	opRevokeKey     = "revoke_key"
	opFindKey       = "find_key"
	opRotateKey     = "rotate_key"
	opSetCaps       = "set_caps"
	opLookupUsage   = "lookup_usage"
	opUsageReport   = "usage_report"
	opVerify        = "verify"
	opMigrate       = "migrate"
)

// Arguments and results of the ops.
type (
	createAccountArgs struct {
		Credits int64        `json:"credits"`
		Caps    *ledger.Caps `json:"caps,omitempty"`
	}
	accountArgs struct {
		AccountID string `json:"account_id"`
	}
	addCreditsArgs struct {
		AccountID string `json:"account_id"`
		Credits   int64  `json:"credits"`
	}
	balanceResult struct {
		Balance int64 `json:"balance"`
	}
	issueKeyArgs struct {
		AccountID string         `json:"account_id"`
		Kind      ledger.KeyKind `json:"kind"`
		RateLimit int            `json:"rate_limit"`
	}
	keyArgs struct {
		KeyID string `json:"key_id"`
	}
	rotateKeyArgs struct {
		KeyID string        `json:"key_id"`
		Grace time.Duration `json:"grace_ns"`
	}
	rotateKeyResult struct {
		Key          wireKey   `json:"key"`
		OldRevokedAt time.Time `json:"old_revoked_at"`
	}
	setCapsArgs struct {
		AccountID string      `json:"account_id"`
		Caps      ledger.Caps `json:"caps"`
	}
	lookupUsageArgs struct {
		RequestID string `json:"request_id"`
	}
	usageReportArgs struct {
		AccountID string    `json:"account_id"`
		From      time.Time `json:"from"`
		To        time.Time `json:"to"`
	}
	newAccountResult struct {
		AccountID string  `json:"account_id"`
		Key       wireKey `json:"key"`
	}
	empty struct{}
)

// wireKey is a ledger.IssuedKey with its secret, which ledger.Secret
// redacts when marshalled.
type wireKey struct {
	KeyID     string         `json:"key_id"`
	AccountID string         `json:"account_id"`
	Kind      ledger.KeyKind `json:"kind"`
	RateLimit int            `json:"rate_limit"`
	Secret    string         `json:"secret"`
}

func toWire(k ledger.IssuedKey) wireKey {
	return wireKey{KeyID: k.KeyID, AccountID: k.AccountID, Kind: k.Kind, RateLimit: k.RateLimit, Secret: k.Secret.Reveal()}
}

func (k wireKey) issued() ledger.IssuedKey {
	return ledger.IssuedKey{KeyID: k.KeyID, AccountID: k.AccountID, Kind: k.Kind, RateLimit: k.RateLimit, Secret: ledger.Secret(k.Secret)}
}

// sentinels are the ledger errors an answer can name, by code.
var sentinels = []struct {
	code string
	err  error
}{
	{"unavailable", ledger.ErrUnavailable},
	{"unknown_account", ledger.ErrUnknownAccount},
	{"unknown_key_id", ledger.ErrUnknownKeyID},
	{"unknown_request", ledger.ErrUnknownRequest},
	{"invalid_argument", ledger.ErrInvalidArgument},
	{"locked", ledger.ErrLocked},
	{"schema_too_new", ledger.ErrSchemaTooNew},
	{"duplicate_request", ledger.ErrDuplicateRequest},
	{"account_suspended", ledger.ErrAccountSuspended},
	{"insufficient_credits", ledger.ErrInsufficientCredits},
	{"unknown_reservation", ledger.ErrUnknownReservation},
	{"malformed_key", ledger.ErrMalformedKey},
	{"unknown_key", ledger.ErrUnknownKey},
	{"revoked_key", ledger.ErrRevokedKey},
}

// encodeError names err's sentinel, if it has one.
func encodeError(err error) *wireError {
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return &wireError{Code: s.code, Message: err.Error()}
		}
	}
	return &wireError{Message: err.Error()}
}

// RemoteError is an error the running mapd's ledger returned: it reads as
// the ledger's own message and matches (errors.Is) the same sentinel.
type RemoteError struct {
	Message  string
	Sentinel error // nil when the ledger's error wrapped none
}

func (e *RemoteError) Error() string { return e.Message }

// Unwrap returns the ledger sentinel the error wrapped.
func (e *RemoteError) Unwrap() error { return e.Sentinel }

func (w *wireError) decode() error {
	e := &RemoteError{Message: w.Message}
	for _, s := range sentinels {
		if s.code == w.Code {
			e.Sentinel = s.err
		}
	}
	return e
}
