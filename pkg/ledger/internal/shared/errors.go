package shared

import (
	"errors"
	"fmt"

	"github.com/mapsco/maps/pkg/ledger"
)

// AccountCaps validates CreateAccount's arguments and applies the default caps.
func AccountCaps(credits int64, caps *ledger.Caps) (ledger.Caps, error) {
	if credits < 0 {
		return ledger.Caps{}, fmt.Errorf("%w: initial credits %d must be >= 0", ledger.ErrInvalidArgument, credits)
	}
	if caps == nil {
		return ledger.DefaultCaps(), nil
	}
	if caps.Daily < 0 || caps.Monthly < 0 {
		return ledger.Caps{}, fmt.Errorf("%w: caps %+v must be >= 0", ledger.ErrInvalidArgument, *caps)
	}
	return *caps, nil
}

// IsLedgerError reports whether err is one of the ledger's own answers
// (as opposed to a storage failure).
func IsLedgerError(err error) bool {
	for _, target := range []error{ledger.ErrUnknownAccount, ledger.ErrUnknownKeyID, ledger.ErrUnknownRequest, ledger.ErrInvalidArgument,
		ledger.ErrInsufficientCredits, ledger.ErrAccountSuspended, ledger.ErrDuplicateRequest, ledger.ErrUnknownKey, ledger.ErrRevokedKey, ledger.ErrSchemaTooNew, ledger.ErrCorrupt} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}
