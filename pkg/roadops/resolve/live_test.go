package resolve_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/roadops"
	"github.com/mapsco/maps/pkg/roadops/resolve"
	"github.com/mapsco/maps/pkg/serving"
)

// TestLiveAcrossReleases: operations follow the release that serves. A
// closure of the tunnel resolves on today's release; tomorrow's release no
// longer has the way (a mapper deleted it), and on the swap the closure is
// reported unresolved there, per data_version, and applied to nothing,
// while a closure by a line still resolves.
func TestLiveAcrossReleases(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles an edited Andorra; the full run covers it")
	}
	ctx := context.Background()
	today := compiletest.OpenAndorra(t)
	dir := compiletest.EditedAndorraRelease(t, t.TempDir(), "tomorrow", compiletest.Edit{Remove: []int64{envalira}})
	tomorrow, err := serving.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tomorrow.Close()
	store, err := roadops.Open(ctx, filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	byWay, err := store.Add(ctx, roadops.Operation{Kind: roadops.KindClosure, Way: envalira, Reason: "accident"}, "test")
	if err != nil {
		t.Fatal(err)
	}
	byLine, err := store.Add(ctx, roadops.Operation{Kind: roadops.KindSlowdown, Factor: 2, Reason: "works",
		Line: [][2]float64{{1.5218, 42.5063}, {1.5235, 42.5072}}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{byWay.ID, byLine.ID} {
		if _, err := store.Review(ctx, id, "test"); err != nil {
			t.Fatal(err)
		}
	}
	ops, err := store.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live := resolve.NewLive(store, nil)
	live.Publish(ops)
	live.Ready(today)
	var told []resolve.Applied // what mapd's metric mapd_road_operations is set from
	live.SetReporter(func(a resolve.Applied) { told = append(told, a) })
	live.Ready(tomorrow) // the swap
	todayV, tomorrowV := today.Manifest.DataVersion, tomorrow.Manifest.DataVersion
	want := []resolve.Applied{{DataVersion: todayV, Applied: 2}, {DataVersion: tomorrowV, Applied: 1, Unresolved: 1}}
	if !slices.Equal(told, want) {
		t.Errorf("reported %+v, want %+v (the last resolution at once, then the swap's)", told, want)
	}
	rs, err := store.Resolutions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]roadops.Resolution{}
	for _, r := range rs {
		got[r.ID+"@"+r.DataVersion] = r
		t.Logf("%s on %s: resolved %v, %d segments, %s", r.ID, r.DataVersion, r.Resolved, r.Segments, r.Detail)
	}
	if r := got[byWay.ID+"@"+todayV]; !r.Resolved {
		t.Errorf("the tunnel's closure on today's release: %+v", r)
	}
	if r := got[byWay.ID+"@"+tomorrowV]; r.Resolved || r.Detail == "" {
		t.Errorf("the tunnel's closure on a release without the tunnel: %+v, want unresolved with a reason", r)
	}
	if r := got[byLine.ID+"@"+tomorrowV]; !r.Resolved {
		t.Errorf("the slowdown by a line on tomorrow's release: %+v", r)
	}
	for _, op := range tomorrow.Routers["car"].Operations() {
		if op.ID == byWay.ID {
			t.Errorf("the unresolved closure is applied on tomorrow's release: %+v", op)
		}
	}
}

// TestShapeAcrossRenumbering: tomorrow's release holds the tunnel under a
// new way id (a mapper deleted and redrew it; the PBF writer wants ids in
// order, and no way of the extract lies between the two). The closure by the old id
// is placed there by the shape the way had where it last resolved, both in
// the server that swaps releases and in one that starts afresh on
// tomorrow's release (the shape read from the store's reports): the same
// segments are closed, and the report says how it was placed.
func TestShapeAcrossRenumbering(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles an edited Andorra; the full run covers it")
	}
	ctx := context.Background()
	today := compiletest.OpenAndorra(t)
	dir := compiletest.EditedAndorraRelease(t, t.TempDir(), "redrawn", compiletest.Edit{Renumber: map[int64]int64{envalira: 6_177_000}})
	tomorrow, err := serving.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tomorrow.Close()
	store, err := roadops.Open(ctx, filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	op, err := store.Add(ctx, roadops.Operation{Kind: roadops.KindClosure, Way: envalira, Reason: "accident"}, "test")
	if err == nil {
		_, err = store.Review(ctx, op.ID, "test")
	}
	ops, _ := store.List(ctx)
	if err != nil || len(ops) != 1 {
		t.Fatalf("publish: %v, %d operations", err, len(ops))
	}
	closed := func(rel *serving.Release) []uint32 {
		var arcs []uint32
		for _, o := range rel.Routers["car"].Operations() {
			for _, c := range o.Changes {
				arcs = append(arcs, c.Arc)
			}
		}
		return arcs
	}
	swapping := resolve.NewLive(store, nil)
	swapping.Publish(ops)
	swapping.Ready(today)
	want := len(closed(today))
	swapping.Ready(tomorrow)
	if got := len(closed(tomorrow)); want == 0 || got != want {
		t.Fatalf("car arcs closed: %d on today's release, %d on the redrawn one after the swap", want, got)
	}
	tomorrow.Routers["car"].SetOperations(nil)
	restarted := resolve.NewLive(store, nil) // a server started on tomorrow's release
	restarted.Publish(ops)
	restarted.Ready(tomorrow)
	if got := len(closed(tomorrow)); got != want {
		t.Fatalf("car arcs closed after a restart on the redrawn release: %d, want %d", got, want)
	}
	rs, err := store.Resolutions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		t.Logf("%s: resolved %v, %d segments, %s", r.DataVersion, r.Resolved, r.Segments, r.Detail)
		if r.DataVersion == tomorrow.Manifest.DataVersion && (!r.Resolved || r.Shape != nil || !strings.Contains(r.Detail, "placed by the shape")) {
			t.Errorf("report on the redrawn release: %+v", r)
		}
		if r.DataVersion == today.Manifest.DataVersion && len(r.Shape) < 2 {
			t.Errorf("report on today's release keeps no shape: %+v", r)
		}
	}
}
