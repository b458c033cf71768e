package compile

import (
	"log/slog"
	"syscall"
	"time"
)

type nopProgress struct{}

func (nopProgress) Start(string, int64) {}
func (nopProgress) Add(int64)           {}
func (nopProgress) Done()               {}

// LogProgress reports a step's advance as plain log lines, at most one
// every Interval, for output that is not a terminal (CI, cron, files).
type LogProgress struct {
	Log      *slog.Logger
	Interval time.Duration
	step     string
	n        int64
	start    time.Time
	last     time.Time
}

func (p *LogProgress) Start(step string, total int64) {
	p.step, p.n, p.start, p.last = step, 0, time.Now(), time.Now()
}

func (p *LogProgress) Add(n int64) {
	p.n += n
	if p.n%4096 == 0 && time.Since(p.last) >= p.Interval {
		p.last = time.Now()
		p.Log.Info("progress", "step", p.step, "elements", p.n, "elapsed", since(p.start))
	}
}

func (p *LogProgress) Done() {}

// PeakRSS returns the process's peak resident memory in bytes (Linux reports
// ru_maxrss in KiB).
func PeakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss << 10
}
