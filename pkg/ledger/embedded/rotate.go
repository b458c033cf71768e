package embedded

import (
	"context"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// RotateKey writes the successor and the old key's revocation time in one
// transaction, then empties the auth cache so that a revocation dated now
// (grace 0) applies to the next request.
func (s *boltStore) RotateKey(ctx context.Context, keyID string, grace time.Duration) (ledger.IssuedKey, time.Time, error) {
	var issued ledger.IssuedKey
	var end time.Time
	err := s.update("rotating key "+keyID, func(tx *bolt.Tx) error {
		keys := tx.Bucket([]byte(bucketKeys))
		var old keyRecord
		found, err := getJSON(keys, keyID, &old)
		if err != nil {
			return err
		}
		if !found {
			return ledger.ErrUnknownKeyID
		}
		now := s.utcNow()
		if end, err = shared.RotationEnd(keyID, old.RevokedAt, now, grace); err != nil {
			return err
		}
		key, hash, err := shared.PrepareKey(old.AccountID, old.Kind, old.RateLimit)
		if err != nil {
			return err
		}
		if err := putKey(tx, key, hash, now); err != nil {
			return err
		}
		old.RevokedAt = &end
		if err := putJSON(keys, []byte(keyID), old); err != nil {
			return err
		}
		issued = key
		return nil
	})
	s.auth.Purge()
	if err != nil {
		return ledger.IssuedKey{}, time.Time{}, err
	}
	return issued, end, nil
}
