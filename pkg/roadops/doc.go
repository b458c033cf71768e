// Package roadops keeps road operations: closures and slowdowns that
// operators publish while mapd serves, so that answers change within a
// second instead of at the next nightly compile.
//
// # Model
//
// An [Operation] is a closure (the road may not be entered) or a slowdown
// (travel time × Factor, or at most SpeedKPH; never faster than normal), on
// a stretch of road given one of three ways: an OSM way id (optionally only
// the part of it between two points), a line the service matches onto the
// roads, or a polygon (every road inside). It applies to all profiles or to
// some, in one direction of the way or both, within a validity window, and
// only once reviewed: [Operation.Active] says whether it applies at a time.
// Its life is draft → reviewed → withdrawn (a draft may be withdrawn too);
// every step is a [Change] (who, when, what), kept for ever.
//
// This package stores operations and delivers their changes; resolving them
// onto a release's graph and applying them in searches is the routing
// side's job, which writes back what it found with [Store.Report].
//
// # Stores
//
// [Open] takes mapd's --ledger value. For an embedded ledger (a file path)
// the operations live in a file of their own beside it, LEDGER.operations,
// never in the money's files. For a PostgreSQL ledger they live in tables of
// their own in the same database (road_operations, road_operation_changes,
// road_operation_resolutions), so every replica sharing the ledger sees them.
//
// The embedded file is an append-only journal that several processes use
// at once with no server: serving mapd reads it, admin commands write it.
// Each line is one record (a batch of changes, or a resolution report) as
// JSON preceded by its CRC-32C; writers hold an exclusive flock, replay what
// is new, append and fsync before returning; readers hold a shared flock
// and replay only the bytes added since their last read. A last line that a
// crashed writer left torn is ignored, and cut off by the next writer;
// damage anywhere else refuses to read ([ErrCorrupt]). See journal.go.
//
// # Watching
//
// [Store.Version] is a cheap poll (a stat of the file, or an index lookup)
// that grows with every change of an operation, and not with resolution
// reports, so that a server reporting what it resolved does not wake
// itself up. [Watch] polls it (every 250 ms by default) and hands the whole
// list of operations to a callback whenever it moved, and also when a
// reviewed operation's validity window opens or closes, so that the
// callback's idea of what is active is never stale by more than a poll.
// PostgreSQL writers serialise on an advisory lock so that the largest
// committed change number never passes over a change still to commit.
//
// # Resolutions
//
// A serving mapd resolves operations onto each release (the routing side)
// and records the outcome with [Store.Report]; only outcomes that differ
// from the latest one per operation and data version are written, so
// reporting everything at every swap is cheap. [Store.Resolutions] feeds
// `mapd operations list`.
//
// # GeoJSON
//
// [DecodeFeatureCollection] reads operations in bulk (mapd operations
// import), strictly: every feature validated, unknown properties refused,
// errors naming the feature's index and field. [EncodeFeatureCollection]
// writes what it reads back.
//
// # Concurrency and lifetimes
//
// A Store is safe for concurrent use by many goroutines and lives until
// Close. Returned values are copies owned by the caller.
package roadops
