package places

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/geo"
)

// Sections of the graph artifact that hold the index.
const (
	// EntriesSection holds recordWords uint32 per entry: the ends of its
	// name and its near in TextSection (each entry's text follows the
	// previous one's), the end of its key in KeysSection, its kind, and its
	// lon and lat in fixed point (int32 bits).
	EntriesSection = "places.entries"
	TextSection    = "places.text" // names and nears, UTF-8, back to back
	KeysSection    = "places.keys" // search keys (fold of the name), back to back
)

const recordWords = 6

// Write adds the index of entries (as Build returns them) to w.
func Write(w *artifact.Writer, entries []Entry) error {
	rec := make([]uint32, 0, recordWords*len(entries))
	var text, keys []byte
	for _, e := range entries {
		text = append(text, e.Name...)
		nameEnd := len(text)
		text = append(text, e.Near...)
		keys = append(keys, fold(e.Name)...)
		if len(text) > 1<<31 || len(keys) > 1<<31 {
			return fmt.Errorf("places: %d entries hold over 2 GiB of names", len(entries))
		}
		rec = append(rec, uint32(nameEnd), uint32(len(text)), uint32(len(keys)), uint32(e.Kind),
			uint32(geo.Fixed(e.Lon)), uint32(geo.Fixed(e.Lat)))
	}
	if err := artifact.AddSlice(w, EntriesSection, rec); err != nil {
		return fmt.Errorf("places: %w", err)
	}
	if err := w.Add(TextSection, text); err != nil {
		return fmt.Errorf("places: %w", err)
	}
	if err := w.Add(KeysSection, keys); err != nil {
		return fmt.Errorf("places: %w", err)
	}
	return nil
}

// Index is the place index of a release, viewed in place. It is read-only
// and safe for concurrent use.
type Index struct {
	rec        []uint32
	text, keys []byte
}

// Load views the index in f; it returns nil and no error when f has none
// (a release built before the index existed).
func Load(f *artifact.File) (*Index, error) {
	rec, err := artifact.SectionView[uint32](f, EntriesSection)
	if errors.Is(err, artifact.ErrNoSection) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	text, err := f.Section(TextSection)
	if err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	keys, err := f.Section(KeysSection)
	if err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	return newIndex(rec, text, keys)
}

// newIndex checks the sections' bytes, which come from a file: every offset
// in order and inside its section, every kind known, every text UTF-8, so
// that no lookup can slice out of bounds or answer invalid JSON.
func newIndex(rec []uint32, text, keys []byte) (*Index, error) {
	if len(rec)%recordWords != 0 {
		return nil, fmt.Errorf("places: %w: %d words of entries is not a whole number of %d-word records", artifact.ErrCorrupt, len(rec), recordWords)
	}
	var textAt, keyAt uint32
	for i := 0; i < len(rec); i += recordWords {
		nameEnd, nearEnd, keyEnd, kind := rec[i], rec[i+1], rec[i+2], rec[i+3]
		if nameEnd < textAt || nearEnd < nameEnd || uint64(nearEnd) > uint64(len(text)) || keyEnd < keyAt || uint64(keyEnd) > uint64(len(keys)) {
			return nil, fmt.Errorf("places: %w: entry %d's offsets are out of order or outside their sections", artifact.ErrCorrupt, i/recordWords)
		}
		if kind >= uint32(numKinds) {
			return nil, fmt.Errorf("places: %w: entry %d has unknown kind %d", artifact.ErrCorrupt, i/recordWords, kind)
		}
		textAt, keyAt = nearEnd, keyEnd
	}
	if !utf8.Valid(text) || !utf8.Valid(keys) {
		return nil, fmt.Errorf("places: %w: names are not UTF-8", artifact.ErrCorrupt)
	}
	return &Index{rec: rec, text: text, keys: keys}, nil
}

// Len is the number of entries.
func (x *Index) Len() int { return len(x.rec) / recordWords }

// Entry returns entry i (0 ≤ i < Len).
func (x *Index) Entry(i int) Entry {
	r := x.rec[i*recordWords : (i+1)*recordWords]
	var start uint32
	if i > 0 {
		start = x.rec[(i-1)*recordWords+1]
	}
	return Entry{Name: string(x.text[start:r[0]]), Near: string(x.text[r[0]:r[1]]), Kind: Kind(r[3]),
		Lon: geo.Degrees(int32(r[4])), Lat: geo.Degrees(int32(r[5]))}
}

// key returns entry i's search key, without copying.
func (x *Index) key(i int) []byte {
	var start uint32
	if i > 0 {
		start = x.rec[(i-1)*recordWords+2]
	}
	return x.keys[start:x.rec[i*recordWords+2]]
}

func (x *Index) kind(i int) Kind { return Kind(x.rec[i*recordWords+3]) }

func (x *Index) point(i int) (lon, lat float64) {
	return geo.Degrees(int32(x.rec[i*recordWords+4])), geo.Degrees(int32(x.rec[i*recordWords+5]))
}
