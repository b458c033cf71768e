package graph

// Strings is a table of strings stored back to back: string i is
// Data[Offsets[i]:Offsets[i+1]]. String 0 is always "".
type Strings struct {
	Offsets []uint32
	Data    []byte
}

// At returns string i; an id out of range gives "".
func (s *Strings) At(i uint32) string {
	if int(i)+1 >= len(s.Offsets) {
		return ""
	}
	return string(s.Data[s.Offsets[i]:s.Offsets[i+1]])
}

// stringTable interns strings at build time, numbering them in first-seen
// order so that the same input gives the same ids.
type stringTable struct {
	ids map[string]uint32
	tab Strings
}

func newStringTable() *stringTable {
	return &stringTable{ids: map[string]uint32{"": 0}, tab: Strings{Offsets: []uint32{0, 0}}}
}

func (t *stringTable) id(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := uint32(len(t.tab.Offsets) - 1)
	t.ids[s] = id
	t.tab.Data = append(t.tab.Data, s...)
	t.tab.Offsets = append(t.tab.Offsets, uint32(len(t.tab.Data)))
	return id
}
