package playground

import (
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// Tiles are free and unauthenticated, and a low-zoom tile reads every road
// segment in view (7.6 ms of CPU on Andorra at zoom 8-10, every segment on
// the 3M country): 256 connections of them moved a paying client's 2-point
// directions from p99 3.6 ms to 967 ms (issue 34 item 4). So tiles are
// cached, and computed only at the lowest priority:
//
//   - tileCache keeps encoded tiles (and their gzip form) of the data
//     release being served, keyed by its data_version and the tile's path,
//     up to tileCacheBytes; a swap to a new release empties it, and beyond
//     the bound arbitrary entries are dropped (a map's order).
//   - Every tile request waits for its turn, all clients together paced at
//     Options.TileRate a second (pacer): the HTTP exchange of a cached tile
//     costs as much CPU as a cheap paid request.
//   - A tile that is not cached is computed only if Options.Admit gives it
//     a slot: mapd passes the API's low-priority admission, which never
//     queues and says no while any paid request waits or every slot is
//     busy, and lets one tile compute at a time. Refused: 503 with
//     Retry-After: 1, free as every tile.

// tileCacheBytes bounds the cache: at about 10 KB a tile, some 6,000 tiles.
const tileCacheBytes = 64 << 20

type cachedTile struct{ raw, gz []byte }

type tileCache struct {
	mu      sync.Mutex
	version string
	tiles   map[string]cachedTile
	bytes   int
}

func (c *tileCache) get(version, path string) (cachedTile, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if version != c.version {
		return cachedTile{}, false
	}
	t, ok := c.tiles[path]
	return t, ok
}

// put stores a tile of version, emptying the cache of another version and
// dropping entries beyond the bound.
func (c *tileCache) put(version, path string, raw []byte) cachedTile {
	t := cachedTile{raw: raw, gz: fasthttp.AppendGzipBytes(nil, raw)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if version != c.version || c.tiles == nil {
		c.version, c.tiles, c.bytes = version, map[string]cachedTile{}, 0
	}
	if old, ok := c.tiles[path]; ok {
		c.bytes -= len(old.raw) + len(old.gz)
	}
	c.tiles[path] = t
	c.bytes += len(t.raw) + len(t.gz)
	for p, old := range c.tiles {
		if c.bytes <= tileCacheBytes {
			break
		}
		if p != path {
			delete(c.tiles, p)
			c.bytes -= len(old.raw) + len(old.gz)
		}
	}
	return t
}

// DefaultTileRate is how many tile requests a second the playground
// answers, all clients together, unless Options.TileRate says otherwise.
// A cached tile costs microseconds in the handler, but the HTTP exchange
// around it costs as much as a cheap paid request: 256 connections of
// cached tiles (3,200 a second) moved a paying client's 2-point directions
// p99 from 8.9 to 216 ms on two cores. Paced, the flood waits instead.
const DefaultTileRate = 200

// tileMaxWait is how long a tile request may wait for its turn; beyond,
// 503 with Retry-After. Long, because a refusal is an HTTP exchange too:
// with a second, 256 connections of tiles drew 4,000 refusals a second and
// the paying client's p99 was 4x its p99 alone; a parked request costs
// nothing.
const tileMaxWait = 5 * time.Second

// pacer spaces tile requests 1/rate apart (GCRA): a request waits (a parked
// goroutine, no CPU) until its turn, or is refused when its turn is more
// than tileMaxWait away.
type pacer struct {
	mu    sync.Mutex
	every time.Duration
	next  time.Time
}

// wait blocks until the request's turn; false means it is too far away.
func (p *pacer) wait() bool {
	now := time.Now()
	p.mu.Lock()
	at := p.next
	if at.Before(now) {
		at = now
	}
	if at.Sub(now) > tileMaxWait {
		p.mu.Unlock()
		return false
	}
	p.next = at.Add(p.every)
	p.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		time.Sleep(d)
	}
	return true
}
