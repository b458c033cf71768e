package admin

import (
	"context"
	"encoding/json"

	"github.com/mapsco/maps/pkg/ledger"
)

// opTable maps each op to the ledger.Admin method it calls.
func (s *Server) opTable() map[string]opFunc {
	a := s.admin
	return map[string]opFunc{
		opCreateAccount: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args createAccountArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
			acct, err := a.CreateAccount(ctx, args.Credits, args.Caps)
			return newAccountResult{AccountID: acct.AccountID, Key: toWire(acct.Key)}, err
		},
		opGetAccount: withAccount(func(ctx context.Context, id string) (any, error) { return a.GetAccount(ctx, id) }),
		opSuspend:    withAccount(func(ctx context.Context, id string) (any, error) { return empty{}, a.Suspend(ctx, id) }),
		opRestore:    withAccount(func(ctx context.Context, id string) (any, error) { return empty{}, a.Restore(ctx, id) }),
		opAddCredits: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args addCreditsArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
			balance, err := a.AddCredits(ctx, args.AccountID, args.Credits)
			return balanceResult{Balance: balance}, err
		},
		opIssueKey: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args issueKeyArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
			key, err := a.IssueKey(ctx, args.AccountID, args.Kind, args.RateLimit)
			return toWire(key), err
		},
		opRevokeKey: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args keyArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
			return empty{}, a.RevokeKey(ctx, args.KeyID)
		},
		opFindKey: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var ref ledger.KeyRef
			if err := decodeArgs(raw, &ref); err != nil {
				return nil, err
			}
			return a.FindKey(ctx, ref)
		},
		opRotateKey: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args rotateKeyArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
			key, end, err := a.RotateKey(ctx, args.KeyID, args.Grace)
			return rotateKeyResult{Key: toWire(key), OldRevokedAt: end}, err
		},
		opSetCaps: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args setCapsArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
			return empty{}, a.SetCaps(ctx, args.AccountID, args.Caps)
		},
		opLookupUsage: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args lookupUsageArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
			return a.LookupUsage(ctx, args.RequestID)
		},
		opUsageReport: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var args usageReportArgs
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
			return a.UsageReport(ctx, args.AccountID, args.From, args.To)
		},
		opVerify: func(ctx context.Context, raw json.RawMessage) (any, error) {
			if err := decodeArgs(raw, &empty{}); err != nil {
				return nil, err
			}
			return a.Verify(ctx)
		},
		opMigrate: func(ctx context.Context, raw json.RawMessage) (any, error) {
			if err := decodeArgs(raw, &empty{}); err != nil {
				return nil, err
			}
			return empty{}, a.Migrate(ctx)
		},
	}
}

// withAccount adapts a method that takes an account id.
func withAccount(fn func(ctx context.Context, accountID string) (any, error)) opFunc {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var args accountArgs
		if err := decodeArgs(raw, &args); err != nil {
			return nil, err
		}
		return fn(ctx, args.AccountID)
	}
}
