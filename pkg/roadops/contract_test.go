package roadops

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

var bg = context.Background()

// opener opens a store at one location; every call to it opens a new
// Store on the same data (as a restart, or another process, would).
type opener func(t *testing.T) Store

// embeddedLocation returns an opener of an embedded store in a temp dir.
func embeddedLocation(t *testing.T) opener {
	ledger := filepath.Join(t.TempDir(), "ledger.db")
	return func(t *testing.T) Store { return mustOpen(t, ledger) }
}

// postgresLocation returns an opener of a PostgreSQL store in a schema of
// the test's own.
func postgresLocation(t *testing.T) opener {
	dsn, _ := ledgertest.PostgresSchema(t, "roadops_test_")
	return func(t *testing.T) Store { return mustOpen(t, dsn) }
}

func mustOpen(t *testing.T, ledger string) Store {
	t.Helper()
	s, err := Open(bg, ledger)
	if err != nil {
		t.Fatalf("Open(%s): %v", ledger, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContractEmbedded(t *testing.T) { runContract(t, embeddedLocation) }
func TestContractPostgres(t *testing.T) { runContract(t, postgresLocation) }

func runContract(t *testing.T, location func(*testing.T) opener) {
	t.Run("Lifecycle", func(t *testing.T) { testLifecycle(t, location(t)) })
	t.Run("AddAllIsAtomic", func(t *testing.T) { testAddAll(t, location(t)) })
	t.Run("RoundTripAndRestart", func(t *testing.T) { testRoundTrip(t, location(t)) })
	t.Run("Reports", func(t *testing.T) { testReports(t, location(t)) })
	t.Run("TwoStoresWriteAtOnce", func(t *testing.T) { testConcurrentStores(t, location(t)) })
	t.Run("WatchDelivers", func(t *testing.T) { testWatch(t, location(t)) })
	t.Run("VersionNeverPassesAChange", func(t *testing.T) { testVersionOrder(t, location(t)) })
	t.Run("Closed", func(t *testing.T) { testClosed(t, location(t)) })
}

func tunnelClosure() Operation {
	return Operation{Kind: KindClosure, Way: envalira, Reason: "accident in the Envalira tunnel", Reference: "CG-2a notice 17"}
}

func mustVersion(t *testing.T, s Store) int64 {
	t.Helper()
	v, err := s.Version(bg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func testLifecycle(t *testing.T, open opener) {
	s := open(t)
	if ops, err := s.List(bg); err != nil || len(ops) != 0 {
		t.Fatalf("a new store lists %v, %v", ops, err)
	}
	v0 := mustVersion(t, s)
	bad := tunnelClosure()
	bad.Factor = 2
	if _, err := s.Add(bg, bad, "ana"); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "factor") {
		t.Errorf("Add of a closure with a factor = %v, want ErrInvalid naming factor", err)
	}
	if v := mustVersion(t, s); v != v0 {
		t.Errorf("a refused Add moved the version from %d to %d", v0, v)
	}
	before := time.Now().Add(-time.Second)
	op, err := s.Add(bg, tunnelClosure(), "ana")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(op.ID, "op_") || op.State != ReviewDraft || op.Direction != DirBoth ||
		op.CreatedAt.Before(before) || !op.UpdatedAt.Equal(op.CreatedAt) {
		t.Errorf("Add returned %+v: want an op_ id, a draft, direction both, times set", op)
	}
	v1 := mustVersion(t, s)
	if v1 <= v0 {
		t.Errorf("Add: version %d -> %d, want it to grow", v0, v1)
	}
	if op.Active(time.Now()) {
		t.Error("a draft is active")
	}
	reviewed, err := s.Review(bg, op.ID, "ben")
	if err != nil || reviewed.State != ReviewReviewed || !reviewed.Active(time.Now()) {
		t.Fatalf("Review = %+v, %v", reviewed, err)
	}
	v2 := mustVersion(t, s)
	if v2 <= v1 {
		t.Errorf("Review: version %d -> %d, want it to grow", v1, v2)
	}
	if again, err := s.Review(bg, op.ID, "ben"); err != nil || again.State != ReviewReviewed {
		t.Errorf("Review of a reviewed operation = %+v, %v, want it unchanged", again, err)
	}
	if v := mustVersion(t, s); v != v2 {
		t.Errorf("a second Review moved the version %d -> %d", v2, v)
	}
	withdrawn, err := s.Withdraw(bg, op.ID, "cy")
	if err != nil || withdrawn.State != ReviewWithdrawn || withdrawn.Active(time.Now()) {
		t.Fatalf("Withdraw = %+v, %v", withdrawn, err)
	}
	if _, err := s.Review(bg, op.ID, "ben"); !errors.Is(err, ErrWithdrawn) {
		t.Errorf("Review of a withdrawn operation = %v, want ErrWithdrawn", err)
	}
	for name, call := range map[string]func() error{
		"Get":      func() error { _, err := s.Get(bg, "op_nobody"); return err },
		"Review":   func() error { _, err := s.Review(bg, "op_nobody", "x"); return err },
		"Withdraw": func() error { _, err := s.Withdraw(bg, "op_nobody", "x"); return err },
		"History":  func() error { _, err := s.History(bg, "op_nobody"); return err },
	} {
		if err := call(); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s of an unknown id = %v, want ErrNotFound", name, err)
		}
	}
	got, err := s.Get(bg, op.ID)
	if err != nil || got.State != ReviewWithdrawn {
		t.Errorf("Get after Withdraw = %+v, %v", got, err)
	}
	hist, err := s.History(bg, op.ID)
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for i, c := range hist {
		steps = append(steps, c.Who+":"+c.Action+":"+string(c.Operation.State))
		if i > 0 && c.Seq <= hist[i-1].Seq {
			t.Errorf("history not in order of seq: %d after %d", c.Seq, hist[i-1].Seq)
		}
		if c.At.IsZero() || c.Operation.ID != op.ID {
			t.Errorf("change %+v lacks its time or operation", c)
		}
	}
	if want := "ana:add:draft ben:review:reviewed cy:withdraw:withdrawn"; strings.Join(steps, " ") != want {
		t.Errorf("history = %s, want %s", strings.Join(steps, " "), want)
	}
	if all, _ := s.History(bg, ""); len(all) != 3 {
		t.Errorf(`History("") has %d changes, want 3`, len(all))
	}
}

func testAddAll(t *testing.T, open opener) {
	s := open(t)
	slow := Operation{Kind: KindSlowdown, Line: [][2]float64{{1.52, 42.50}, {1.53, 42.51}}, SpeedKPH: 30, Reason: "works"}
	bad := slow
	bad.SpeedKPH = 250
	v0 := mustVersion(t, s)
	if _, err := s.AddAll(bg, []Operation{tunnelClosure(), bad}, "ana"); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "operation 1") {
		t.Errorf("AddAll with an invalid second = %v, want ErrInvalid naming operation 1", err)
	}
	if ops, _ := s.List(bg); len(ops) != 0 || mustVersion(t, s) != v0 {
		t.Errorf("a refused AddAll left %d operations", len(ops))
	}
	added, err := s.AddAll(bg, []Operation{tunnelClosure(), slow, tunnelClosure()}, "ana")
	if err != nil || len(added) != 3 {
		t.Fatalf("AddAll = %v, %v", added, err)
	}
	ops, err := s.List(bg)
	if err != nil || len(ops) != 3 {
		t.Fatalf("List = %v, %v", ops, err)
	}
	for i := range ops {
		if ops[i].ID != added[i].ID {
			t.Errorf("List[%d] = %s, want %s: List is by creation", i, ops[i].ID, added[i].ID)
		}
	}
}

// sameJSON compares operations as their JSON, which is how both stores keep
// them (time zones become offsets).
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}

func testRoundTrip(t *testing.T, open opener) {
	s := open(t)
	from := time.Date(2026, 11, 28, 8, 0, 0, 123456789, time.FixedZone("CET", 3600))
	until := from.Add(36 * time.Hour)
	ops := []Operation{
		{Kind: KindClosure, Way: envalira, From: pt(1.7197, 42.5401), To: pt(1.7312, 42.5449), Direction: DirForward,
			Profiles: []string{"car", "truck"}, ValidFrom: &from, ValidUntil: &until, Reason: "accident", Reference: "notice 1"},
		{Kind: KindSlowdown, Line: [][2]float64{{1.5212345678901, 42.5}, {1.53, 42.51}, {1.54, 42.515}}, Factor: 1.75,
			Direction: DirBackward, Reason: "snow"},
		{Kind: KindSlowdown, Polygon: [][][2]float64{square(1.5, 42.5, 0.01), square(1.502, 42.502, 0.001)}, SpeedKPH: 20,
			ValidFrom: &from, Reason: "market day"},
	}
	added, err := s.AddAll(bg, ops, "ana")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Review(bg, added[0].ID, "ben"); err != nil {
		t.Fatal(err)
	}
	added[0].State = ReviewReviewed
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again := open(t) // a restart
	listed, err := again.List(bg)
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != 3 {
		t.Fatalf("after a restart List has %d operations, want 3", len(listed))
	}
	for i := range ops {
		want := added[i]
		want.UpdatedAt = listed[i].UpdatedAt
		sameJSON(t, "operation "+want.ID+" after a restart", listed[i], want)
		if i == 0 && !listed[0].UpdatedAt.After(listed[0].CreatedAt) && !listed[0].UpdatedAt.Equal(listed[0].CreatedAt) {
			t.Errorf("updated_at %s before created_at %s", listed[0].UpdatedAt, listed[0].CreatedAt)
		}
	}
	if !listed[0].Active(from) || listed[0].Active(until) || listed[1].Active(from) {
		t.Error("Active disagrees with state and window after a round trip")
	}
}

func testReports(t *testing.T, open opener) {
	s := open(t)
	added, err := s.AddAll(bg, []Operation{tunnelClosure(), tunnelClosure()}, "ana")
	if err != nil {
		t.Fatal(err)
	}
	a, b := added[0].ID, added[1].ID
	v := mustVersion(t, s)
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	shape := [][2]float64{{1.7012345, 42.5412345}, {1.7023456, 42.5423456}, {1.7034567, 42.5434567}}
	must(s.Report(bg, "2026-11-27", []Resolution{{ID: a, Resolved: true, Segments: 12, Detail: "way 6176755", At: at, Shape: shape},
		{ID: b, Resolved: true, Segments: 3, At: at}}))
	must(s.Report(bg, "2026-11-28", []Resolution{{ID: a, Resolved: false, Detail: "way 6176755 not in the release; geometry matched nothing"}}))
	must(s.Report(bg, "2026-11-28", []Resolution{{ID: a, Resolved: true, Segments: 11, Detail: "by geometry", At: at}}))
	// The same outcome again, later: not recorded again, At stays.
	must(s.Report(bg, "2026-11-28", []Resolution{{ID: a, Resolved: true, Segments: 11, Detail: "by geometry", At: at.Add(time.Hour)}}))
	if got := mustVersion(t, s); got != v {
		t.Errorf("Report moved the version %d -> %d: a server reporting would wake its own watcher", v, got)
	}
	rs, err := open(t).Resolutions(bg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 {
		t.Fatalf("Resolutions = %+v, want 3 (latest per operation and data version)", rs)
	}
	want := map[string]Resolution{a + "/2026-11-27": {Resolved: true, Segments: 12, Shape: shape}, b + "/2026-11-27": {Resolved: true, Segments: 3},
		a + "/2026-11-28": {Resolved: true, Segments: 11}}
	for i, r := range rs {
		w, ok := want[r.ID+"/"+r.DataVersion]
		if !ok || w.Resolved != r.Resolved || w.Segments != r.Segments || r.At.IsZero() || !slices.Equal(w.Shape, r.Shape) {
			t.Errorf("resolution %+v unexpected", r)
		}
		if i > 0 && (rs[i-1].ID > r.ID || rs[i-1].ID == r.ID && rs[i-1].DataVersion > r.DataVersion) {
			t.Errorf("resolutions not by id then data version")
		}
	}
	for _, r := range rs {
		if !r.At.Equal(at) {
			t.Errorf("resolution %s/%s: At %s, want %s (its own time, kept when the same outcome is reported again)", r.ID, r.DataVersion, r.At, at)
		}
	}
}

// testConcurrentStores: writers on separate Stores (as separate processes
// would be) lose nothing and number changes without gaps or repeats.
func testConcurrentStores(t *testing.T, open opener) {
	const writers, each = 4, 15
	stores := make([]Store, writers)
	for i := range stores {
		stores[i] = open(t)
	}
	errs := make(chan error, writers)
	for _, s := range stores {
		go func() {
			for range each {
				op, err := s.Add(bg, tunnelClosure(), "w")
				if err == nil {
					_, err = s.Review(bg, op.ID, "w")
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	checkComplete(t, open(t), writers*each)
}

// checkComplete checks that a store holds n reviewed operations, each with
// its add and review, in increasing order of seq.
func checkComplete(t *testing.T, s Store, n int) {
	t.Helper()
	ops, err := s.List(bg)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, op := range ops {
		if op.State != ReviewReviewed || ids[op.ID] {
			t.Errorf("operation %s: state %s, seen before %v", op.ID, op.State, ids[op.ID])
		}
		ids[op.ID] = true
	}
	if len(ids) != n {
		t.Errorf("%d operations, want %d", len(ids), n)
	}
	hist, err := s.History(bg, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2*n {
		t.Errorf("%d changes, want %d", len(hist), 2*n)
	}
	for i := 1; i < len(hist); i++ {
		if hist[i].Seq <= hist[i-1].Seq {
			t.Fatalf("change %d has seq %d after %d", i, hist[i].Seq, hist[i-1].Seq)
		}
	}
	if v := mustVersion(t, s); len(hist) > 0 && v != hist[len(hist)-1].Seq {
		t.Errorf("Version %d, want the last change's seq %d", v, hist[len(hist)-1].Seq)
	}
}

// testVersionOrder: while writers on other Stores add concurrently, every
// change numbered at most Version() is visible to a History read after it.
// Otherwise a watcher could take a version whose change it has not read
// and never read it.
func testVersionOrder(t *testing.T, open opener) {
	const writers, each = 3, 20
	reader := open(t)
	done := make(chan error, writers)
	for range writers {
		w := open(t)
		go func() {
			for range each {
				if _, err := w.Add(bg, tunnelClosure(), "w"); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	type sample struct {
		version int64
		seen    map[int64]bool
	}
	var samples []sample
	for finished := 0; finished < writers; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			finished++
		default:
		}
		v := mustVersion(t, reader)
		hist, err := reader.History(bg, "")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]bool{}
		for _, c := range hist {
			seen[c.Seq] = true
		}
		samples = append(samples, sample{v, seen})
	}
	final, err := reader.History(bg, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		for _, c := range final {
			if c.Seq <= s.version && !s.seen[c.Seq] {
				t.Fatalf("Version said %d, but change %d was not visible after it", s.version, c.Seq)
			}
		}
	}
	t.Logf("%d samples of Version and History during %d concurrent adds", len(samples), writers*each)
}

// testClosed: a closed store refuses calls rather than crash.
func testClosed(t *testing.T, open opener) {
	s := open(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.List(bg); err == nil {
		t.Error("List on a closed store succeeded")
	}
	if _, err := s.Add(bg, tunnelClosure(), "x"); err == nil {
		t.Error("Add on a closed store succeeded")
	}
}
