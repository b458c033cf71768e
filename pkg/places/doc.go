// Package places is the release's own gazetteer: the named OSM places
// (place=* nodes: towns, villages, suburbs, hamlets, localities) and the
// named streets of the road network, each with one representative point,
// so that mapd's playground can put names on its map and find a place
// typed into its search box without any outside geocoder.
//
// mapc builds the index (Build) and writes it as sections of the graph
// artifact (Write); mapd views them in place (Load) and answers searches
// from them (Index.Search, Index.Within). A release built before the index
// existed simply has none: Load returns nil.
//
// Search matches a query folded like the names (lower case, accents and
// punctuation dropped) against whole names, then word prefixes, then with
// typos (an edit distance on prefixes, one typo from 4 characters, two from
// 8), and ranks matches by how they matched, then by the place's kind
// (a town before a hamlet before a street), then by length.
package places
