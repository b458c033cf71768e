package embedded

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/mapsco/maps/pkg/ledger"
)

// checkBoltExists refuses an embedded ledger file that does not exist.
func checkBoltExists(path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: ledger file %s does not exist", ledger.ErrNoLedger, path)
	}
	return nil
}
