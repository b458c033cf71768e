package embedded

import (
	"fmt"

	"github.com/mapsco/maps/pkg/ledger"
)

// corruptError is damage found in the embedded ledger's files. It reads as
// its message alone and matches ErrCorrupt and, since a request that meets
// it must be answered 503, ErrUnavailable.
type corruptError struct{ msg string }

func corrupt(format string, args ...any) error {
	return &corruptError{msg: "ledger: " + fmt.Sprintf(format, args...)}
}

func (e *corruptError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrCorrupt) and errors.Is(err, ErrUnavailable)
// true.
func (e *corruptError) Is(target error) bool {
	return target == ledger.ErrCorrupt || target == ledger.ErrUnavailable
}

// restoreHint ends the errors of damaged ledger files.
const restoreHint = `restore both files from the same backup (docs/metering.md, "Damaged ledger files")`
