package ratelimit

import (
	"context"
	"strconv"
	"testing"
)

// BenchmarkLocalAllow: many keys, all cores.
func BenchmarkLocalAllow(b *testing.B) {
	l := NewLocal(Options{})
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = "key_" + strconv.Itoa(i)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			l.Allow(ctx, keys[i%len(keys)], 1_000_000)
			i++
		}
	})
}

// BenchmarkRedisAllow: one round trip per call.
func BenchmarkRedisAllow(b *testing.B) {
	l, err := OpenWith(context.Background(), redisURL, Options{KeyPrefix: "bench:ratelimit:"})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := l.Allow(ctx, "key_bench", 1_000_000); err != nil {
				b.Fatal(err)
			}
		}
	})
}
