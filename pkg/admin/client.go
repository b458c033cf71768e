package admin

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// ErrNoServer means no mapd answers on the admin socket: there is none, or
// a stale one that a mapd killed with -9 left behind. The ledger file may
// then be opened directly.
var ErrNoServer = errors.New("admin: no mapd answers on the admin socket")

// dialTimeout bounds connecting: a live mapd accepts at once.
const dialTimeout = 2 * time.Second

// Client is a ledger.Admin that runs every call in the mapd serving on the
// socket.
type Client struct {
	path string
	mu   sync.Mutex
	conn net.Conn
	r    *bufio.Reader
}

var _ ledger.Admin = (*Client)(nil)

// Dial connects to the mapd serving on the socket at path. An error
// wrapping ErrNoServer means nothing answers there.
func Dial(path string) (*Client, error) {
	conn, err := dial(path)
	if err != nil {
		return nil, err
	}
	return &Client{path: path, conn: conn, r: bufio.NewReader(conn)}, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// call sends one request and decodes its result into result (unless nil).
// A failure of the socket itself wraps ledger.ErrUnavailable.
func (c *Client) call(ctx context.Context, op string, args, result any) error {
	rawArgs, err := json.Marshal(args)
	if err != nil {
		return fmt.Errorf("admin: encoding %s: %w", op, err)
	}
	line, err := json.Marshal(request{Op: op, Args: rawArgs})
	if err != nil {
		return fmt.Errorf("admin: encoding %s: %w", op, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	deadline, _ := ctx.Deadline() // zero: none
	c.conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { c.conn.SetDeadline(time.Now()) })
	defer stop()
	if _, err := c.conn.Write(append(line, '\n')); err != nil {
		return c.broken(op, err)
	}
	answer, err := readLine(c.r)
	if err != nil {
		return c.broken(op, err)
	}
	var resp response
	if err := json.Unmarshal(answer, &resp); err != nil {
		return c.broken(op, fmt.Errorf("undecodable answer: %w", err))
	}
	if resp.Error != nil {
		return resp.Error.decode()
	}
	if result != nil {
		if err := json.Unmarshal(resp.Result, result); err != nil {
			return c.broken(op, fmt.Errorf("undecodable %s result: %w", op, err))
		}
	}
	return nil
}

func (c *Client) broken(op string, err error) error {
	return fmt.Errorf("%w: %s through the admin socket %s: %w", ledger.ErrUnavailable, op, c.path, err)
}

// CreateAccount implements ledger.Admin.
func (c *Client) CreateAccount(ctx context.Context, credits int64, caps *ledger.Caps) (ledger.NewAccount, error) {
	var res newAccountResult
	if err := c.call(ctx, opCreateAccount, createAccountArgs{Credits: credits, Caps: caps}, &res); err != nil {
		return ledger.NewAccount{}, err
	}
	return ledger.NewAccount{AccountID: res.AccountID, Key: res.Key.issued()}, nil
}

// GetAccount implements ledger.Admin.
func (c *Client) GetAccount(ctx context.Context, accountID string) (ledger.Account, error) {
	var a ledger.Account
	err := c.call(ctx, opGetAccount, accountArgs{AccountID: accountID}, &a)
	return a, err
}

// Suspend implements ledger.Admin.
func (c *Client) Suspend(ctx context.Context, accountID string) error {
	return c.call(ctx, opSuspend, accountArgs{AccountID: accountID}, nil)
}

// Restore implements ledger.Admin.
func (c *Client) Restore(ctx context.Context, accountID string) error {
	return c.call(ctx, opRestore, accountArgs{AccountID: accountID}, nil)
}

// AddCredits implements ledger.Admin.
func (c *Client) AddCredits(ctx context.Context, accountID string, credits int64) (int64, error) {
	var res balanceResult
	err := c.call(ctx, opAddCredits, addCreditsArgs{AccountID: accountID, Credits: credits}, &res)
	return res.Balance, err
}

// IssueKey implements ledger.Admin.
func (c *Client) IssueKey(ctx context.Context, accountID string, kind ledger.KeyKind, rateLimit int) (ledger.IssuedKey, error) {
	var res wireKey
	if err := c.call(ctx, opIssueKey, issueKeyArgs{AccountID: accountID, Kind: kind, RateLimit: rateLimit}, &res); err != nil {
		return ledger.IssuedKey{}, err
	}
	return res.issued(), nil
}

// RevokeKey implements ledger.Admin.
func (c *Client) RevokeKey(ctx context.Context, keyID string) error {
	return c.call(ctx, opRevokeKey, keyArgs{KeyID: keyID}, nil)
}

// FindKey implements ledger.Admin. Only the key's id or hash travels.
func (c *Client) FindKey(ctx context.Context, ref ledger.KeyRef) (ledger.KeyDetail, error) {
	var d ledger.KeyDetail
	err := c.call(ctx, opFindKey, ref, &d)
	return d, err
}

// RotateKey implements ledger.Admin.
func (c *Client) RotateKey(ctx context.Context, keyID string, grace time.Duration) (ledger.IssuedKey, time.Time, error) {
	var res rotateKeyResult
	if err := c.call(ctx, opRotateKey, rotateKeyArgs{KeyID: keyID, Grace: grace}, &res); err != nil {
		return ledger.IssuedKey{}, time.Time{}, err
	}
	return res.Key.issued(), res.OldRevokedAt, nil
}

// SetCaps implements ledger.Admin.
func (c *Client) SetCaps(ctx context.Context, accountID string, caps ledger.Caps) error {
	return c.call(ctx, opSetCaps, setCapsArgs{AccountID: accountID, Caps: caps}, nil)
}

// LookupUsage implements ledger.Admin.
func (c *Client) LookupUsage(ctx context.Context, requestID string) (ledger.Usage, error) {
	var u ledger.Usage
	err := c.call(ctx, opLookupUsage, lookupUsageArgs{RequestID: requestID}, &u)
	return u, err
}

// UsageReport implements ledger.Admin.
func (c *Client) UsageReport(ctx context.Context, accountID string, from, to time.Time) (ledger.UsageReport, error) {
	var r ledger.UsageReport
	err := c.call(ctx, opUsageReport, usageReportArgs{AccountID: accountID, From: from, To: to}, &r)
	return r, err
}

// Verify implements ledger.Admin.
func (c *Client) Verify(ctx context.Context) (ledger.VerifyReport, error) {
	var r ledger.VerifyReport
	err := c.call(ctx, opVerify, empty{}, &r)
	return r, err
}

// Migrate implements ledger.Admin.
func (c *Client) Migrate(ctx context.Context) error {
	return c.call(ctx, opMigrate, empty{}, nil)
}
