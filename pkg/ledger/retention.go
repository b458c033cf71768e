package ledger

import (
	"context"
	"time"
)

// UsagePruner is implemented by the stores whose usage records can be
// pruned: the embedded one.
type UsagePruner interface {
	// PruneUsage deletes the usage records of charges made before cutoff
	// and returns how many it deleted.
	PruneUsage(ctx context.Context, cutoff time.Time) (int, error)
}
