package embedded

import "github.com/mapsco/maps/pkg/ledger"

// journalRecord is one charge: its usage record and the UTC day and month
// its credits count in (those of its reservation).
type journalRecord struct {
	ledger.Usage
	Day   int `json:"day"`
	Month int `json:"month"`
	// Cancel voids the earlier charge of the same request: the embedded
	// store journals a charge when it is reserved and, if the request
	// fails, cancels it before the failure is answered.
	Cancel bool `json:"cancel,omitempty"`
	// Key is the Idempotency-Key of the charge's request, if it sent one.
	// Replay voids such a charge unless the key's stored answer is its
	// request's (idempotency_void.go): without a stored answer the request
	// was never answered 200, and its retry must not pay twice.
	Key string `json:"key,omitempty"`
}
