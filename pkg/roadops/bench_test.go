package roadops

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// benchOps are the load: 100 closures and 1,000 slowdowns, all
// reviewed (2,200 changes in the history).
func benchOps(b *testing.B, s Store) {
	b.Helper()
	ops := make([]Operation, 0, 1100)
	for i := range 1100 {
		op := Operation{Kind: KindSlowdown, Way: int64(1000 + i), Factor: 1.5, Reason: fmt.Sprintf("bench %d", i)}
		if i < 100 {
			op.Kind, op.Factor = KindClosure, 0
		}
		ops = append(ops, op)
	}
	added, err := s.AddAll(bg, ops, "bench")
	if err != nil {
		b.Fatal(err)
	}
	for _, op := range added {
		if _, err := s.Review(bg, op.ID, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchStores(b *testing.B, run func(b *testing.B, writer, reader Store)) {
	b.Run("embedded", func(b *testing.B) {
		ledger := filepath.Join(b.TempDir(), "ledger.db")
		writer, reader := mustOpenB(b, ledger), mustOpenB(b, ledger)
		benchOps(b, writer)
		run(b, writer, reader)
	})
	b.Run("postgres", func(b *testing.B) {
		dsn, _ := ledgertest.PostgresSchema(b, "roadops_bench_")
		writer, reader := mustOpenB(b, dsn), mustOpenB(b, dsn)
		benchOps(b, writer)
		run(b, writer, reader)
	})
}

// BenchmarkVersion is the cost of one idle poll of Watch.
func BenchmarkVersion(b *testing.B) {
	benchStores(b, func(b *testing.B, _, reader Store) {
		for b.Loop() {
			if _, err := reader.Version(bg); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkList is what a watcher reads when something changed: every
// one of 1,100 operations.
func BenchmarkList(b *testing.B) {
	benchStores(b, func(b *testing.B, _, reader Store) {
		for b.Loop() {
			if ops, err := reader.List(bg); err != nil || len(ops) < 1100 {
				b.Fatal(len(ops), err)
			}
		}
	})
}

// BenchmarkAddToList is one change and a watcher's reading of it: an Add
// (its fsync or commit included) and a List by another Store.
func BenchmarkAddToList(b *testing.B) {
	benchStores(b, func(b *testing.B, writer, reader Store) {
		for b.Loop() {
			if _, err := writer.Add(bg, tunnelClosure(), "bench"); err != nil {
				b.Fatal(err)
			}
			if _, err := reader.List(bg); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func mustOpenB(b *testing.B, ledger string) Store {
	s, err := Open(bg, ledger)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}
