// Package admin carries the operator's ledger commands (mapd account,
// credits, key, caps, usage, ledger) to a running mapd, so that an
// embedded ledger, which one process holds at a time, can be administered
// while it serves: a top-up, a suspension or a revocation without a
// restart, seen by the very next request.
//
// # Transport and authorisation
//
// mapd serve listens on a unix socket beside the embedded ledger
// (FILE-admin.sock for the ledger FILE; see SocketPath). The socket is
// created with mode 0600 inside a private directory and only then moved into
// place, so from its first moment only mapd's own user (and root) may
// connect: the file mode is the authorisation, as for the ledger file itself.
// Anyone who can connect can do anything the admin commands can, including
// issuing keys.
//
// # Protocol
//
// One JSON object per line each way, requests answered in order on a
// connection:
//
//	-> {"op": "add_credits", "args": {"account_id": "acct_...", "credits": 100}}
//	<- {"result": {"balance": 1100}}
//	<- {"error": {"code": "unknown_account", "message": "adding credits to account acct_...: ledger: unknown account"}}
//
// Ops mirror the methods of ledger.Admin (see ops.go for each one's
// arguments and result). An error carries the message the ledger gave and
// a code naming its sentinel, so that the client's error reads the same and
// matches the same errors.Is as it would against the ledger opened
// directly: the admin commands print the same output either way. Secrets
// (a newly issued key) travel in the clear over the socket, which only
// mapd's user can reach, exactly once, as they are printed once.
//
// # Concurrency and lifetimes
//
// A Server serves many connections at once, each request calling the
// ledger.Admin it was given (which must be safe for concurrent use, as the
// ledger's stores are); Close stops accepting, lets requests in flight
// finish and removes the socket. A Client holds one connection and sends
// one request at a time; it is safe for concurrent use but serialises.
package admin
