package places

// Kind is what an entry names, ordered by how much a search or a map at a
// low zoom should prefer it: a city before a village before a street.
type Kind uint8

// Kinds of entries; the names are OSM's place=* values, and "street".
const (
	City Kind = iota
	Town
	Village
	Suburb
	Hamlet
	Quarter
	Neighbourhood
	Locality
	IsolatedDwelling
	OtherPlace // any other place=* value (square, farm, island, ...)
	Street
	numKinds
)

var kindNames = [numKinds]string{"city", "town", "village", "suburb", "hamlet", "quarter", "neighbourhood",
	"locality", "isolated_dwelling", "place", "street"}

// String is the kind's OSM name ("place" for OtherPlace).
func (k Kind) String() string {
	if k >= numKinds {
		return "unknown"
	}
	return kindNames[k]
}

// PlaceKind maps an OSM place=* value to its kind; ok is false for values
// that name no place a map shows (place=yes, an empty value, country and
// state, which cover the whole extract).
func PlaceKind(v string) (k Kind, ok bool) {
	switch v {
	case "", "yes", "no", "country", "state", "region", "province", "county", "district", "municipality", "continent", "ocean", "sea":
		return 0, false
	}
	for k := City; k < OtherPlace; k++ {
		if kindNames[k] == v {
			return k, true
		}
	}
	return OtherPlace, true
}

// Settlement reports whether an entry of kind k is a place people live in,
// which a street's "near" may name.
func (k Kind) Settlement() bool { return k <= Hamlet }

// MinZoom is the zoom from which the map labels places of kind k.
func (k Kind) MinZoom() float64 {
	switch {
	case k <= Town:
		return 0
	case k == Village:
		return 11
	case k <= Quarter:
		return 13
	case k == Street:
		return 16
	default:
		return 14.5
	}
}
