package main

import (
	"bufio"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// gcPercent is the build's GOGC unless the environment sets one: the
// collector runs once the heap has grown by half since the last one, so the
// peak stays near 1.5 times the live heap at any size of country (the
// 3M-node country: about 1.1 GiB live).
//
// It replaces a fixed soft limit of 1,792 MiB, which the 3M-node compile's
// own peak crossed as soon as more than two profiles contracted at once,
// and every larger country always: above its limit the collector runs
// without pause, on up to half of GOMAXPROCS, and at GOMAXPROCS=8 on two
// cores the build took twice the CPU (docs/benchmarks-history.md).
const gcPercent = 50

// defaultMemoryLimitMiB is --memory-limit's default: three quarters of the
// memory the machine (or the cgroup the build runs in, when smaller)
// holds, a guard against running out rather than a pace for the collector,
// which gcPercent sets. 0 (none) when neither can be read.
func defaultMemoryLimitMiB() int64 {
	total := memTotal()
	if cg := cgroupLimit(); cg > 0 && (total == 0 || cg < total) {
		total = cg
	}
	return total / 4 * 3 >> 20
}

// memTotal reads MemTotal from /proc/meminfo, in bytes (0 if unknown).
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// cgroupLimit reads the cgroup v2 memory.max of this process's cgroup, in
// bytes (0 if unknown or "max").
func cgroupLimit() int64 {
	b, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// setMemoryLimit applies gcPercent unless GOGC is set, and --memory-limit,
// unless it was left at its default and the environment's GOMEMLIMIT
// already set one.
func setMemoryLimit(cmd *cobra.Command, mib int64) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if !cmd.Flags().Changed("memory-limit") && os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if mib == 0 {
		debug.SetMemoryLimit(math.MaxInt64)
		return
	}
	debug.SetMemoryLimit(mib << 20)
}

// cpuSeconds reports the CPU the process has used so far: user and
// system, every thread, from getrusage. (The runtime's own estimate of the
// collector's share, /cpu/classes/gc, counts a P's time, not a core's: on a
// machine busy with other work it read 113 s for a 3 s Andorra build.)
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
