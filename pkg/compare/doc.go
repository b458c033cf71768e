// Package compare is the gate between two releases of the same country: it
// answers the same questions on both, in process, and reports what changed
// for users, so that a nightly pipeline can refuse a release before it is
// served (`mapc compare OLD NEW`, `mapc release use --gate-with current`).
//
// # What is compared
//
// Per profile, a seeded sample of points is drawn uniformly along the roads
// of the old release that the profile may use (its largest strongly
// connected component), and kept when the new release has a usable road
// within Options.PresenceM of the point: "road points present in both". How
// far every drawn point's snap moved is reported, kept or not, so a road
// removed or moved shows there. Consecutive kept points make the pairs
// routed on both releases; the first kept points make a small matrix; some
// make isochrone origins and elevation sample points. Landmark routes, named
// by the user, are routed whatever their snaps. The manifests' counts sit
// side by side.
//
// The same seed, options and old release give the same sample whatever the
// new release is, so successive nightly gates compare like with like.
//
// # Thresholds
//
// Thresholds (thresholds.go) say which differences refuse the new release;
// Check lists the ones crossed. The defaults are strict: a gate that a
// vandalised road or a flipped one-way slips through is no gate.
//
// # Use
//
// Run opens both releases, computes the Report and closes them; nothing it
// returns refers to a release's mapping. Run is safe to call concurrently.
// It runs its work on Options.Workers goroutines.
package compare
