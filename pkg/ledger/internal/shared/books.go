package shared

import (
	"fmt"

	"github.com/mapsco/maps/pkg/ledger"
)

// CheckBooks (Verify, both stores) compares an account's stored balance and charge total with the
// sums of its grants and usage records.
func CheckBooks(accountID string, balance, charged, grants, charges int64) (ledger.Mismatch, bool) {
	m := ledger.Mismatch{AccountID: accountID, Balance: balance, Grants: grants, Charges: charges}
	switch {
	case balance != grants-charges:
		m.Reason = fmt.Sprintf("balance %d != grants %d - charges %d", balance, grants, charges)
	case balance < 0:
		m.Reason = fmt.Sprintf("negative balance %d", balance)
	case charged != charges:
		m.Reason = fmt.Sprintf("charge total %d != sum of usage records %d", charged, charges)
	default:
		return m, false
	}
	return m, true
}
