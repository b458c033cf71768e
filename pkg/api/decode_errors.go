package api

import (
	"fmt"
	"strconv"

	"github.com/mapsco/maps/pkg/jsonscan"
)

// This file collects what the decoders find wrong and turns it into an *InvalidRequest.

// memberPointer is the pointer to a top-level member of the request.
func memberPointer(name string) jsonscan.Pointer { return jsonscan.Pointer{}.Member(name) }

// fieldErrors keeps the first MaxFieldErrors errors and counts the rest, so that a hostile body with thousands
// of bad values costs a counter increment per value past the limit, not a formatted message.
type fieldErrors struct {
	list  []FieldError
	total int
}

// addf records an error at p, formatting it only when it will be kept.
func (f *fieldErrors) addf(p jsonscan.Pointer, format string, args ...any) {
	f.total++
	if len(f.list) >= MaxFieldErrors {
		return
	}
	f.list = append(f.list, FieldError{
		Field:   truncate(p.String(), MaxFieldLength),
		Message: truncate(fmt.Sprintf(format, args...), MaxMessageLength),
	})
}

// addBelow records the errors of g, found by a decoder whose pointers start at the value path points to.
func (f *fieldErrors) addBelow(path string, g fieldErrors) {
	for _, e := range g.list {
		if len(f.list) < MaxFieldErrors {
			f.list = append(f.list, FieldError{Field: truncate(path+e.Field, MaxFieldLength), Message: e.Message})
		}
	}
	f.total += g.total
}

// detail is the one-line summary of the field errors.
func (f *fieldErrors) detail() string {
	switch {
	case f.total == 1:
		return "1 field is invalid"
	case f.total > len(f.list):
		return fmt.Sprintf("%d fields are invalid; the first %d are listed", f.total, len(f.list))
	default:
		return fmt.Sprintf("%d fields are invalid", f.total)
	}
}

// wrongType reports a value of the wrong JSON type; want completes "must be ...".
func (f *fieldErrors) wrongType(p jsonscan.Pointer, want string, got jsonscan.Kind) {
	f.addf(p, "must be %s, got %s", want, got)
}

// quoteValue quotes a client's string for a message, short enough to leave room for the explanation and
// escaped so that any bytes it holds come out as valid text.
func quoteValue(raw []byte) string {
	const maxQuoted = 40
	if len(raw) > maxQuoted {
		return strconv.Quote(string(raw[:maxQuoted])) + "..."
	}
	return strconv.Quote(string(raw))
}

// formatNumber prints a number as short as it reads back.
func formatNumber(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}
