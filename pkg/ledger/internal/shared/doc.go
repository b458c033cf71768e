// Package shared holds what the ledger's two stores compute alike and what
// their callers need not see: spend caps and their rollover (spend.go), key
// issue and request checks (keys.go), revocation times (revoke.go), the
// positive Authenticate cache (authcache.go), the gate that keeps charges
// out of a closing store (closegate.go), usage report days (report.go),
// stored idempotency answers (idempotency.go) and Verify's balance check
// (books.go). It is internal so that package ledger's API stays the
// contract alone; it imports ledger, never a store.
package shared
