package places

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// Limits of a search: callers cut queries and limits to them.
const (
	MaxQuery = 64 // bytes of a query
	MaxLimit = 20 // results of a search or a labels request
)

// How a name matched, best first.
const (
	matchExact  = iota // the whole name
	matchPrefix        // the start of the name
	matchWord          // the start of a later word ("vella" in "andorra la vella")
	matchTypo          // the start of the name or a word, with typos
)

// Match is an entry a search found, with how well.
type Match struct {
	Entry
	how, typos int
	index      int
}

// Search returns up to limit entries whose names match query, best first
// (see the package comment). A query that folds to nothing finds nothing.
func (x *Index) Search(query string, limit int) []Match {
	q := fold(query)
	if q == "" || limit <= 0 {
		return nil
	}
	var found []Match
	var rows [3][]int
	for i := range x.Len() {
		how, typos, ok := match(q, x.key(i), &rows)
		if ok {
			found = append(found, Match{how: how, typos: typos, index: i})
		}
	}
	slices.SortFunc(found, func(a, b Match) int {
		return cmp.Or(cmp.Compare(a.how, b.how), cmp.Compare(a.typos, b.typos), cmp.Compare(x.kind(a.index), x.kind(b.index)),
			cmp.Compare(len(x.key(a.index)), len(x.key(b.index))), cmp.Compare(a.index, b.index))
	})
	found = found[:min(limit, len(found))]
	for i := range found {
		found[i].Entry = x.Entry(found[i].index)
	}
	return found
}

// match says how the folded query q matches the key of a name.
func match(q string, key []byte, rows *[3][]int) (how, typos int, ok bool) {
	switch {
	case string(key) == q:
		return matchExact, 0, true
	case bytes.HasPrefix(key, []byte(q)):
		return matchPrefix, 0, true
	}
	for at := bytes.IndexByte(key, ' '); at >= 0; {
		word := key[at+1:]
		if bytes.HasPrefix(word, []byte(q)) {
			return matchWord, 0, true
		}
		next := bytes.IndexByte(word, ' ')
		if next < 0 {
			break
		}
		at += 1 + next
	}
	limit := maxTypos(len(q))
	if limit == 0 {
		return 0, 0, false
	}
	best := prefixDistance(q, key, limit, rows)
	for at := 0; at < len(key) && best > 0; at++ {
		if key[at] == ' ' {
			best = min(best, prefixDistance(q, key[at+1:], limit, rows))
		}
	}
	return matchTypo, best, best <= limit
}

// Within returns up to limit entries inside the box whose kind a map at
// zoom labels (Kind.MinZoom: streets from 16, by their representative
// point), the largest kinds first: the names the playground draws on its
// map.
func (x *Index) Within(west, south, east, north, zoom float64, limit int) []Entry {
	var in []int
	for i := range x.Len() {
		k := x.kind(i)
		if k.MinZoom() > zoom {
			continue
		}
		if lon, lat := x.point(i); lon >= west && lon <= east && lat >= south && lat <= north {
			in = append(in, i)
		}
	}
	slices.SortStableFunc(in, func(a, b int) int { return cmp.Compare(x.kind(a), x.kind(b)) })
	out := make([]Entry, 0, min(limit, len(in)))
	for _, i := range in[:min(limit, len(in))] {
		out = append(out, x.Entry(i))
	}
	return out
}

// Normalize is how a query is read: folded, as names are. Callers show it
// back so that a user sees what was searched.
func Normalize(query string) string { return strings.TrimSpace(fold(query)) }
