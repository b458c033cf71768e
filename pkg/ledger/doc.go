// Package ledger keeps the money side of the service: accounts, API keys,
// prepaid credits, spend caps and one usage record per charged request.
//
// # Why
//
// Every compute request is paid for in advance. The ledger must never lose a
// credit nor spend one twice, on one machine (the embedded store, a bbolt
// file) and across several mapd replicas (the PostgreSQL store). Both stores
// implement [Store] and pass the same contract tests.
//
// # Packages
//
// This package is the contract, as database/sql is to its drivers: the
// [Store] interface and its [Meter] and [Admin] halves, accounts, keys and
// their checksums, costs, spend caps, [Options] and the errors. The stores
// live beside it, and neither imports the other:
//
//   - package embedded: a bbolt file and its journal (group commit,
//     replay, verify, recover, compact);
//   - package postgres: the schema, its migrations, holds, voids and
//     queries;
//   - package open: [Store] from a location (mapd's --ledger), choosing
//     the store by its shape;
//   - package ledgertest: the contract tests both stores run, and test
//     servers;
//   - internal/shared: what both stores compute alike (caps, key issue,
//     revocation times, the auth cache, the close gate, report days).
//
// # Per-request protocol (what the HTTP middleware calls)
//
//  1. [Meter.Authenticate] the presented bearer key. ErrMalformedKey,
//     ErrUnknownKey and ErrRevokedKey mean 401; a public key on a compute
//     endpoint or KeyInfo.AccountStatus == StatusSuspended means 403.
//  2. Rate-limit on KeyInfo.KeyID (package ratelimit), never on the secret.
//  3. Compute the cost, then [Meter.Reserve] it. ErrInsufficientCredits (the
//     error is an *InsufficientCreditsError with Balance, Cost and Cap) means
//     402; ErrAccountSuspended means 403.
//  4. Run the handler. On success call [Meter.Commit] and send 200 only after
//     it returned nil: Commit returns once the charge and its usage record are
//     durable (for the embedded store, as [Options.Sync] says). On any failure
//     (4xx/5xx, panic, client gone) call [Meter.Release]: a failed request
//     costs nothing.
//
// Any error wrapping ErrUnavailable means the backend cannot answer: reply 503
// and never serve the request unmetered. A deadline on the context is not
// needed: the PostgreSQL store bounds each call itself, and the embedded one
// waits on no network.
//
// # Reservations and crash safety
//
// A reservation holds credits without spending them. The embedded store keeps
// holds in memory (the process owns the file: bbolt takes an exclusive lock)
// but writes the charge to its journal at once; Commit waits for that write
// (SyncBackground) or for its fdatasync (SyncCommit), and Release appends a
// cancellation and waits for its fdatasync, so a failed request is answered
// only once it costs nothing, whatever happens to the machine. A crash
// therefore leaves the charges of the requests in flight (an answer may not
// have left), and a clean Close cancels the holds still outstanding. The PostgreSQL store writes holds to a table (replicas must see each
// other's holds) with an expiry (Options.HoldTTL, default 10 minutes); any
// replica returns expired holds to their account. Commit makes the charge and
// the usage record durable together, so a charge is either fully recorded or
// not at all.
//
// # Spend caps
//
// Caps limit what an account may spend per UTC day and per UTC month,
// counting outstanding reservations. A cap of 0 means no cap. Accounts get
// [DefaultCaps] (a daily cap of DefaultDailyCap credits, no monthly cap)
// unless created with explicit caps. Credits count against the caps of the
// UTC day and month in which they were reserved, from Reserve on; a Release
// takes them off again.
//
// # Keys
//
// Keys are "sk_" (secret) or "pk_" (public), 43 base62 characters
// (0-9A-Za-z: 256 random bits from crypto/rand) and a 6-character checksum:
// the CRC-32 (IEEE) of the 46 characters before it, in base62 (most
// significant digit first, zero-padded), as GitHub's tokens carry one. So a
// key matches `\b[sp]k_[0-9A-Za-z]{49}\b`, which secret scanners can match
// and then check offline, and Authenticate refuses a mistyped key
// (ErrMalformedKey) before any lookup. Keys issued before the checksum
// ("sk_" or "pk_" and 52 lowercase base32 characters) keep working. Only
// their SHA-256 is stored; the key itself is returned once, by
// CreateAccount, IssueKey or RotateKey, as a [Secret] whose String and JSON
// forms are redacted so it cannot leak into logs by accident. Key ids
// ("key_...") and account ids ("acct_...") are not secret.
//
// A key is refused from its revocation time on. RevokeKey revokes at once;
// RotateKey issues a successor and dates the old key's revocation a grace
// period ahead, so clients can switch over without an outage.
//
// Authenticate caches positive answers for Options.AuthCacheTTL (default 1 s).
// Revocation and suspension made through the same Store take effect at once;
// made elsewhere (another replica, the admin CLI against PostgreSQL) they take
// effect within AuthCacheTTL. Reserve always checks the account status
// against the backend, so a suspended account is never charged or served.
//
// # Concurrency and lifetimes
//
// A Store is safe for concurrent use by many goroutines and lives until Close.
// Returned values are plain data owned by the caller. The embedded store
// admits one process at a time: while mapd serves a ledger file, another
// Open of it fails with ErrLocked, so the admin commands reach the serving
// process's Store through its admin socket instead (package admin).
package ledger
