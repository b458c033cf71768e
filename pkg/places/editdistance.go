package places

// prefixDistance returns the fewest edits (insertions, deletions,
// substitutions, or two adjacent letters swapped) that turn q into some
// prefix of key, or max+1 when every prefix needs more than max: how far a
// query typed so far is from the start of a name. Only the band of cells
// within max of the diagonal is computed (a cell beyond it costs more than
// max), and the search stops once a whole row exceeds max. Bytes are
// compared: keys and queries are folded, so almost all ASCII. rows holds
// three rows of len(key)+1 for reuse.
func prefixDistance(q string, key []byte, max int, rows *[3][]int) int {
	n := len(key)
	over := max + 1
	for i := range rows {
		if cap(rows[i]) < n+2 {
			rows[i] = make([]int, n+2)
		}
		rows[i] = rows[i][:n+2] // one spare cell past the band's end
	}
	prev2, prev, cur := rows[0], rows[1], rows[2]
	for j := 0; j <= min(n, max); j++ {
		prev[j] = j
	}
	prev[min(n, max)+1] = over
	for i := 1; i <= len(q); i++ {
		lo, hi := max0(i-max), min(n, i+max)
		if lo > hi {
			return over // the key is too short for q
		}
		if lo == 0 {
			cur[0], lo = i, 1
		} else {
			cur[lo-1] = over
		}
		low := cur[lo-1]
		for j := lo; j <= hi; j++ {
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
		cur[hi+1] = over
		if low > max {
			return over
		}
		prev2, prev, cur = prev, cur, prev2
	}
	best := over
	for j := max0(len(q) - max); j <= min(n, len(q)+max); j++ {
		best = min(best, prev[j])
	}
	return best
}

func max0(v int) int { return max(0, v) }

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
