package shared

import (
	"fmt"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// Revocation times. A key's revoked_at is when it stops working: now for
// RevokeKey, a grace period ahead for the key RotateKey replaced. Both
// stores read and write it through these helpers.

// RevokedBy reports whether a key with the given revocation time (nil:
// none) is refused at now.
func RevokedBy(revokedAt *time.Time, now time.Time) bool {
	return revokedAt != nil && !now.Before(*revokedAt)
}

// CacheUntil is how long an Authenticate answer may be cached: the cache's
// own expiry, or the key's scheduled revocation if that comes first.
func CacheUntil(revokedAt *time.Time) time.Time {
	if revokedAt == nil {
		return time.Time{}
	}
	return *revokedAt
}

// RotationEnd returns the old key's revocation time after a rotation at
// now with the given grace: now + grace, or an earlier revocation already
// scheduled. A key already revoked cannot be rotated.
func RotationEnd(keyID string, revokedAt *time.Time, now time.Time, grace time.Duration) (time.Time, error) {
	if grace < 0 {
		return time.Time{}, fmt.Errorf("%w: grace period %v must be >= 0", ledger.ErrInvalidArgument, grace)
	}
	if RevokedBy(revokedAt, now) {
		return time.Time{}, fmt.Errorf("%w: key %s was revoked at %s; issue a new key instead",
			ledger.ErrInvalidArgument, keyID, revokedAt.UTC().Format(time.RFC3339))
	}
	end := now.Add(grace).UTC()
	if revokedAt != nil && revokedAt.Before(end) {
		end = revokedAt.UTC()
	}
	return end, nil
}
