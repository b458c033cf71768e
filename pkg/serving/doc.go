// Package serving is mapd's side of a release: it opens one (its artifacts
// mapped, its graphs viewed in place, a router per profile), holds the one
// being served so that requests acquire it and a swap drops none, and
// watches the current pointer to verify, open and swap in the next.
//
// The release on disk (manifest, writing, the current pointer, listing,
// pruning, verifying) is package release, which mapc links without any of
// the routing code this package brings in.
package serving
