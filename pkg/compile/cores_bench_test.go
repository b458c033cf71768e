package compile_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// BenchmarkCompileCores runs `mapc build` on a synthetic country at two
// GOMAXPROCS values, one process each, alternating, and reports for each
// its wall time, CPU time (user + system, garbage collection included) and
// peak RSS, then the ratios of the second to the first. More procs should
// cut the wall time on a machine with that many cores and never multiply
// the CPU (issue 43: at 16 procs the build burnt 6.5 times the CPU); on a
// shared two-core machine only the CPU ratio means anything.
//
// MAPS_SYNTH_PBF names the country (mapc synth --nodes 3000000, see
// docs/benchmarks-history.md); without it a three-tile country (Andorra,
// Liechtenstein and Monaco side by side, ~190,000 routable nodes) is
// synthesised into a temporary directory. MAPS_COMPILE_PROCS picks the two
// values (default 2,8).
//
//	MAPS_SYNTH_PBF=/tmp/s3m.osm.pbf MAPS_COMPILE_PROCS=2,16 nice -n 10 go test -run X -bench CompileCores -benchtime 1x -timeout 60m ./pkg/compile
func BenchmarkCompileCores(b *testing.B) {
	compiletest.RequireAndorra(b)
	procs := [2]int{2, 8}
	if v := os.Getenv("MAPS_COMPILE_PROCS"); v != "" {
		a, c, ok := strings.Cut(v, ",")
		p0, err0 := strconv.Atoi(a)
		p1, err1 := strconv.Atoi(c)
		if !ok || err0 != nil || err1 != nil || p0 < 1 || p1 < 1 {
			b.Fatalf("MAPS_COMPILE_PROCS=%q: want two numbers of procs, like 2,8", v)
		}
		procs = [2]int{p0, p1}
	}
	mapc := compiletest.Mapc(b)
	pbf := os.Getenv("MAPS_SYNTH_PBF")
	if pbf == "" {
		pbf = filepath.Join(b.TempDir(), "synth.osm.pbf")
		synth := exec.Command(mapc, "synth", "--tiles", "3", "--data-dir", filepath.Join(compiletest.Root(), "..", "shared", "data"), "--out", pbf)
		if out, err := synth.CombinedOutput(); err != nil {
			b.Fatalf("mapc synth: %v\n%s", err, out)
		}
	}
	var sum [2]run
	for b.Loop() {
		for i, p := range procs {
			r := compileAt(b, mapc, pbf, p)
			sum[i].wall += r.wall
			sum[i].cpu += r.cpu
			sum[i].peakMiB = max(sum[i].peakMiB, r.peakMiB)
		}
	}
	n := time.Duration(b.N)
	for i, p := range procs {
		b.ReportMetric((sum[i].wall / n).Seconds(), fmt.Sprintf("wall-s@%d", p))
		b.ReportMetric((sum[i].cpu / n).Seconds(), fmt.Sprintf("cpu-s@%d", p))
		b.ReportMetric(float64(sum[i].peakMiB), fmt.Sprintf("peak-MiB@%d", p))
	}
	b.ReportMetric(sum[1].wall.Seconds()/sum[0].wall.Seconds(), "wall-ratio")
	b.ReportMetric(sum[1].cpu.Seconds()/sum[0].cpu.Seconds(), "cpu-ratio")
}

// run is one mapc build's cost.
type run struct {
	wall, cpu time.Duration
	peakMiB   int64
}

// compileAt runs mapc build on pbf with GOMAXPROCS=procs and measures it
// from the outside: the child's own rusage.
func compileAt(b *testing.B, mapc, pbf string, procs int) run {
	out := b.TempDir()
	cmd := exec.Command(mapc, "build", "--osm", pbf, "--profiles", filepath.Join(compiletest.Root(), "profiles"),
		"--data-version", "cores", "--out", out)
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(procs))
	start := time.Now()
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("mapc build at GOMAXPROCS=%d: %v\n%s", procs, err, msg)
	}
	r := run{wall: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		r.peakMiB = ru.Maxrss >> 10
	}
	os.RemoveAll(out)
	return r
}
