// Package profile loads the routing profiles (moto, car, truck, bicycle, pedestrian, pedestrian_loaded) from JSON
// data files and evaluates OSM tags against them: which ways a mode may use and in which direction, at what speed,
// which barrier nodes block it, and which turn restrictions bind it.
//
// The rules live in data (profiles/<name>.json, documented field by field in profiles/README.md) so that a speed
// or access decision can be reviewed and changed without touching code; this package holds only the evaluation
// machinery, which is the same for every mode.
//
// # Evaluation of a way
//
//  1. route=ferry ways use the profile's ferry speed (no ferry section: not usable).
//  2. The highway=* class must be in "highways" (ridden/driven) or in "pushing.highways" (bicycle pushed).
//  3. "deny_tags" veto the way (e.g. 4wd_only=yes for car); vehicle limits (maxheight, maxweight, maxwidth,
//     maxlength below the profile's vehicle) make it unusable.
//  4. Access: the first tag of the hierarchy (most specific first) whose value the profile knows decides:
//     allow, deny or push. Unknown values are skipped. A class with needs_explicit_access is usable only when an
//     "explicit" tag (e.g. motorcycle=yes for moto on a footway) allows it; otherwise a pushable class is pushed.
//  5. Direction from the oneway tags (most specific first), oneway exceptions (cycleway=opposite), then implied
//     oneway (junction=roundabout). A bicycle may push against an explicit oneway on the listed classes.
//  6. Speed = class speed × the smallest matching speed factor (surface, smoothness, tracktype, ...), then capped
//     by maxspeed × maxspeed.factor for that direction, then by max_speed_kmh. Pushing and ferries take their own
//     fixed speeds.
//
// The optional "grade" object of a profile is the terrain speed model (see Grade): Way returns flat-ground
// speeds, and the compiler applies Grade.Seconds per segment and direction when it has a DEM.
//
// # Concurrency and lifetimes
//
// A *Profile is immutable after Load and safe for concurrent use. Way, Barrier and Restriction do not allocate
// and keep no reference to the tag map; the kind string returned by Restriction may share memory with the tag
// value it came from.
package profile
