package main

// How an admin command reaches the ledger: through the admin socket of the
// mapd serving an embedded ledger, or by opening the ledger itself (a
// PostgreSQL ledger always, an embedded one that no mapd serves); and what
// it says when --ledger names no ledger.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mapsco/maps/pkg/admin"
	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/open"
	"github.com/mapsco/maps/pkg/strictcli"
)

// socketPath is the admin socket of an embedded ledger.
func (lf *ledgerFlag) socketPath() string {
	if lf.socket != "" {
		return lf.socket
	}
	return admin.SocketPath(lf.dsn)
}

// display names the ledger in output: a URL without its password.
func (lf *ledgerFlag) display() string {
	if open.Embedded(lf.dsn) {
		return lf.dsn
	}
	if u, err := url.Parse(lf.dsn); err == nil {
		return u.Redacted()
	}
	return "the PostgreSQL ledger"
}

// lockedRetry is how long a command whose ledger file is locked keeps
// looking for the admin socket: a mapd that has just opened the file
// listens on it a moment later.
const lockedRetry = 2 * time.Second

// openAdmin returns what the command runs against and how to let go of
// it. Only when create is true may it create a ledger.
func openAdmin(ctx context.Context, lf *ledgerFlag, create bool) (ledger.Admin, func() error, error) {
	opts := ledger.Options{MustExist: !create, Logger: adminLogger()}
	if !open.Embedded(lf.dsn) {
		store, err := open.OpenWith(ctx, lf.dsn, opts)
		if err != nil {
			return nil, nil, explainOpen(lf.dsn, err)
		}
		return store, store.Close, nil
	}
	sock := lf.socketPath()
	if c, err := admin.Dial(sock); err == nil {
		return c, c.Close, nil
	} else if !errors.Is(err, admin.ErrNoServer) {
		return nil, nil, err
	}
	if dir := filepath.Dir(lf.dsn); create {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, nil, fmt.Errorf("ledger %s: directory %s does not exist: create it first", lf.dsn, dir)
		}
	}
	store, err := open.OpenWith(ctx, lf.dsn, opts)
	if errors.Is(err, ledger.ErrLocked) {
		for deadline := time.Now().Add(lockedRetry); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if c, derr := admin.Dial(sock); derr == nil {
				return c, c.Close, nil
			}
		}
		return nil, nil, fmt.Errorf("%w, and nothing answers on its admin socket %s: if mapd serve holds it, give --admin-socket as it was given to serve", err, sock)
	}
	if err != nil {
		return nil, nil, explainOpen(lf.dsn, err)
	}
	return store, store.Close, nil
}

// adminLogger is where the ledger's messages go when a command opens it
// itself (a journal converted to the current format): stderr, as text,
// beside the command's JSON on stdout.
func adminLogger() *slog.Logger { return slog.New(slog.NewTextHandler(os.Stderr, nil)) }

// ledgerExists reports whether the ledger is there already, for ledger init.
func ledgerExists(ctx context.Context, lf *ledgerFlag) bool {
	if open.Embedded(lf.dsn) {
		_, err := os.Stat(lf.dsn)
		return err == nil
	}
	store, err := open.OpenWith(ctx, lf.dsn, ledger.Options{MustExist: true})
	if err != nil {
		return false
	}
	store.Close()
	return true
}

// explainOpen adds to a refusal of a ledger that does not exist what to do
// about it: the ledger the operator probably meant, or how to create one.
func explainOpen(dsn string, err error) error {
	if !errors.Is(err, ledger.ErrNoLedger) {
		return err
	}
	const creators = "only `mapd account create` and `mapd ledger init` create a ledger"
	if !open.Embedded(dsn) {
		return fmt.Errorf("%w (%s)", err, creators)
	}
	if likely := likelyLedger(dsn); likely != "" {
		return fmt.Errorf("%w; did you mean --ledger %s? (%s)", err, likely, creators)
	}
	return fmt.Errorf("%w; no ledger found nearby (a ledger is FILE with FILE-journal beside it; mapd's default is %s, and %s)", err, defaultLedger, creators)
}

// likelyLedger returns the existing embedded ledger whose path is nearest
// to the one given: ledgers (FILE with FILE-journal beside it) in the
// given path's directory, the working directory and the default one.
func likelyLedger(missing string) string {
	seen := map[string]bool{}
	best, bestDistance := "", -1
	for _, dir := range []string{filepath.Dir(missing), ".", filepath.Dir(defaultLedger)} {
		journals, _ := filepath.Glob(filepath.Join(dir, "*-journal"))
		for _, j := range journals {
			candidate := filepath.Clean(strings.TrimSuffix(j, "-journal"))
			if seen[candidate] {
				continue
			}
			seen[candidate] = true
			if fi, err := os.Stat(candidate); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if d := strictcli.Distance(filepath.Clean(missing), candidate); bestDistance < 0 || d < bestDistance {
				best, bestDistance = candidate, d
			}
		}
	}
	return best
}
