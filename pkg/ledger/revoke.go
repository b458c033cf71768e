package ledger

import (
	"fmt"
	"time"
)

// Revocation times. A key's revoked_at is when it stops working: now for
// RevokeKey, a grace period ahead for the key RotateKey replaced. Both
// stores read and write it through these helpers.

// revokedBy reports whether a key with the given revocation time (nil:
// none) is refused at now.
func revokedBy(revokedAt *time.Time, now time.Time) bool {
	return revokedAt != nil && !now.Before(*revokedAt)
}

// cacheUntil is how long an Authenticate answer may be cached: the cache's
// own expiry, or the key's scheduled revocation if that comes first.
func cacheUntil(revokedAt *time.Time) time.Time {
	if revokedAt == nil {
		return time.Time{}
	}
	return *revokedAt
}

// rotationEnd returns the old key's revocation time after a rotation at
// now with the given grace: now + grace, or an earlier revocation already
// scheduled. A key already revoked cannot be rotated.
func rotationEnd(keyID string, revokedAt *time.Time, now time.Time, grace time.Duration) (time.Time, error) {
	if grace < 0 {
		return time.Time{}, fmt.Errorf("%w: grace period %v must be >= 0", ErrInvalidArgument, grace)
	}
	if revokedBy(revokedAt, now) {
		return time.Time{}, fmt.Errorf("%w: key %s was revoked at %s; issue a new key instead",
			ErrInvalidArgument, keyID, revokedAt.UTC().Format(time.RFC3339))
	}
	end := now.Add(grace).UTC()
	if revokedAt != nil && revokedAt.Before(end) {
		end = revokedAt.UTC()
	}
	return end, nil
}
