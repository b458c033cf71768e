// Package postgres is the ledger's store shared by several mapd replicas: a
// PostgreSQL schema (schema.go: its tables and numbered migrations, run
// under an advisory lock by Open and Migrate), behind the contract of
// package ledger (package open picks it for a "postgres://" or
// "postgresql://" --ledger).
//
// # Holds
//
// Holds are rows (ledger_holds), since every replica must see every other's
// holds, with an expiry (Options.HoldTTL, default 10 minutes); any replica
// returns expired holds to their account (meter.go, the sweep). Commit
// makes the charge and its usage record durable in one transaction, so a
// charge is either fully recorded or not at all.
//
// # Voids
//
// Each call is bounded (a few seconds, then ErrUnavailable). A Commit whose
// answer did not arrive may have landed: the store never leaves such a
// failed Commit charged. It voids the commit once the server answers again,
// refunding a charge that landed meanwhile, and a server that runs a commit
// after its deadline gives the credits back itself (void.go).
//
// # Idempotency
//
// Claims and stored answers are rows too (idempotency.go); a claim whose
// request holds no credits is taken over by another replica after
// IdempotencyOptions.Lease.
package postgres
