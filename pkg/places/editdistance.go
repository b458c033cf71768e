package places

// prefixDistance returns the fewest edits (insertions, deletions,
// substitutions, or two adjacent letters swapped) that turn q into some
// prefix of key, stopping early with max+1 once every prefix needs more
// than max: how far a query typed so far is from the start of a name.
// Bytes are compared: keys and queries are folded, so almost all ASCII.
// rows holds three rows of len(key)+1 for reuse.
func prefixDistance(q string, key []byte, max int, rows *[3][]int) int {
	n := len(key)
	for i := range rows {
		if cap(rows[i]) < n+1 {
			rows[i] = make([]int, n+1)
		}
		rows[i] = rows[i][:n+1]
	}
	prev2, prev, cur := rows[0], rows[1], rows[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(q); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= n; j++ {
			cost := 1
			if q[i-1] == key[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && q[i-1] == key[j-2] && q[i-2] == key[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			low = min(low, d)
		}
		if low > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	best := prev[0]
	for _, d := range prev {
		best = min(best, d)
	}
	return best
}

// maxTypos is how many typos a query of n bytes may hold: none under 4,
// where one edit would match half the names, one up to 7, two beyond.
func maxTypos(n int) int {
	switch {
	case n < 4:
		return 0
	case n < 8:
		return 1
	default:
		return 2
	}
}
