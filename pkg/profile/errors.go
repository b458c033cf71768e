package profile

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error that reports a profile file breaking the format rules (as opposed to an
// I/O error), so callers can tell a bad file from a missing one with errors.Is.
var ErrInvalid = errors.New("invalid profile")

// FieldError names the file and the JSON field (dotted path, e.g. "highways.track.speed_kmh") that broke a rule.
type FieldError struct {
	File  string
	Field string
	Msg   string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("profile %s: field %s: %s", e.File, e.Field, e.Msg)
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Unwrap() error { return ErrInvalid }
