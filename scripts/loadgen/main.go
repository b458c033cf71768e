// Command loadgen is scripts/bench's HTTP load generator: it posts
// pre-generated JSON bodies (directions between random road points,
// matrices of them, or isochrones from them) to one endpoint of a local mapd with a fixed number of
// concurrent clients for a fixed time, then prints requests/s, latency
// percentiles and the status-code breakdown as one table row.
//
// It only ever talks to 127.0.0.1, stops by itself after -d, and is
// deterministic in what it sends (-seed). It uses fasthttp's client rather
// than net/http so that, on the same two cores as mapd, the generator costs
// the server as little CPU as possible.
//
//	loadgen -url http://127.0.0.1:8080/v1/directions -pbf andorra.osm.pbf -c 4 -d 10s
//	loadgen -url http://127.0.0.1:8080/v1/matrix -size 100 -pbf andorra.osm.pbf
//	loadgen -url http://127.0.0.1:8080/v1/isochrone -minutes 30 -pbf andorra.osm.pbf
//	loadgen -url http://127.0.0.1:5000/ -osrm -close -size 100 -pbf andorra.osm.pbf   # the same tables, of osrm-routed
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"time"
)

// config is loadgen's flags.
type config struct {
	url      string
	pbf      string
	label    string
	key      string
	profile  string
	size     int  // matrix: sources = targets = size; 0 means directions
	same     bool // matrix: the targets are the sources (a square table of size points)
	alts     int  // directions: "alternatives" in every body; -1 leaves it out (the spec's default, 1)
	bodies   int
	clients  int
	duration time.Duration
	warmup   time.Duration
	timeout  time.Duration
	seed     uint64
	header   bool
	dump     string // write the bodies to this file, one per line, and exit
	// waypoints is the directions' coordinates per body; steps asks for
	// turn-by-turn steps. Together the expensive request of the overload
	// scenario (scripts/overload).
	waypoints int
	steps     bool
	elevation bool // the URL is /v1/elevation: bodies of -size points (default 1)
	// isochrone: the URL is /v1/isochrone, bodies of one origin each with
	// one contour of minutes (issue 42 measures 30-minute car isochrones).
	isochrone bool
	minutes   int
	// osrm sends each request as osrm-routed's GET (osrm.go) instead of
	// mapd's POST; close asks for a new connection a request (osrm-routed
	// stalls about 40 ms on each request of a kept-alive connection).
	osrm, close     bool
	osrmAnnotations string // -osrm tables: OSRM's annotations parameter
	// tiles asks mapd --playground's map tiles (GET, no key) at the zooms
	// it lists, "8-10": tileZooms.
	tiles     string
	tileZooms []int
	// retryAfter makes a worker honour Retry-After on a 503 or 429, as a
	// well-behaved client does, instead of sending its next request at once.
	retryAfter bool
}

func parseFlags() (config, error) {
	var c config
	flag.StringVar(&c.url, "url", "", "endpoint, e.g. http://127.0.0.1:8080/v1/directions (host must be 127.0.0.1)")
	flag.StringVar(&c.pbf, "pbf", "", "OSM PBF whose car-road nodes are sampled for coordinates")
	flag.StringVar(&c.label, "label", "", "first column of the output row (default: the URL path)")
	flag.StringVar(&c.key, "key", "", "API key sent as Authorization: Bearer KEY when set")
	flag.StringVar(&c.profile, "profile", "car", "profile in every request")
	flag.IntVar(&c.size, "size", 0, "matrix: N sources × N targets (0: directions between 2 points)")
	flag.BoolVar(&c.same, "same", false, "matrix: the targets are the sources (size points from all to all, OSRM's usual table)")
	flag.IntVar(&c.alts, "alternatives", -1, "directions: alternatives to ask for, 0-3 (-1: leave the field out, the spec's default of 1)")
	flag.IntVar(&c.bodies, "bodies", 4000, "distinct request bodies, sent round-robin")
	flag.IntVar(&c.clients, "c", 4, "concurrent clients")
	flag.DurationVar(&c.duration, "d", 10*time.Second, "measured duration")
	flag.DurationVar(&c.warmup, "warmup", time.Second, "unmeasured load before the measured run")
	flag.DurationVar(&c.timeout, "timeout", 10*time.Second, "per-request timeout")
	flag.Uint64Var(&c.seed, "seed", 1, "random seed for the sampled points")
	flag.BoolVar(&c.header, "header", false, "print the table header before the row")
	flag.StringVar(&c.dump, "dump", "", "write the request bodies to this file, one per line, and exit (for wrk: scripts/wrk-bodies.lua)")
	flag.IntVar(&c.minutes, "minutes", 30, "isochrone (-url .../v1/isochrone): the contour's travel time in minutes, 1-120")
	flag.IntVar(&c.waypoints, "waypoints", 2, "directions: coordinates per request, 2-50")
	flag.BoolVar(&c.steps, "steps", false, "directions: ask for turn-by-turn steps")
	flag.BoolVar(&c.retryAfter, "retry-after", false, "honour Retry-After on 503 and 429 before a worker's next request")
	flag.BoolVar(&c.osrm, "osrm", false, "-url is osrm-routed's (http://127.0.0.1:5000/): ask it the same points with OSRM's GET /route or /table")
	flag.StringVar(&c.osrmAnnotations, "osrm-annotations", "duration,distance", "-osrm tables: OSRM's annotations (its own default is duration; mapd answers both)")
	flag.BoolVar(&c.close, "close", false, "a new connection for every request (Connection: close)")
	flag.StringVar(&c.tiles, "tiles", "", "GET mapd --playground's map tiles at these zooms (e.g. 8-10) holding the sampled points, instead of POSTing to -url's path (-url names the host)")
	headerOnly := flag.Bool("header-only", false, "print the table header and exit (scripts/bench)")
	flag.Parse()
	if *headerOnly {
		fmt.Println(header())
		os.Exit(0)
	}
	u, err := url.Parse(c.url)
	switch {
	case err != nil:
		return c, fmt.Errorf("-url: %w", err)
	case u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Port() == "":
		return c, fmt.Errorf("-url %q: only http://127.0.0.1:PORT/... is allowed", c.url)
	case c.pbf == "":
		return c, fmt.Errorf("-pbf is required")
	case c.clients < 1 || c.bodies < 1 || c.duration <= 0:
		return c, fmt.Errorf("-c, -bodies and -d must be positive")
	}
	c.elevation = strings.HasSuffix(u.Path, "/elevation")
	c.isochrone = strings.HasSuffix(u.Path, "/isochrone")
	if c.osrm && (c.elevation || c.isochrone) {
		return c, fmt.Errorf("-osrm: OSRM has no %s service", strings.TrimPrefix(u.Path, "/v1/"))
	}
	if c.isochrone && (c.minutes < 1 || c.minutes > 120) {
		return c, fmt.Errorf("-minutes %d: want 1 to 120", c.minutes)
	}
	if c.waypoints < 2 || c.waypoints > 50 {
		return c, fmt.Errorf("-waypoints %d: want 2 to 50", c.waypoints)
	}
	if c.tiles != "" {
		var lo, hi int
		if n, _ := fmt.Sscanf(c.tiles, "%d-%d", &lo, &hi); n != 2 || lo < 0 || hi < lo || hi > 20 {
			return c, fmt.Errorf("-tiles %q: want zooms LO-HI, 0 to 20", c.tiles)
		}
		for z := lo; z <= hi; z++ {
			c.tileZooms = append(c.tileZooms, z)
		}
	}
	if c.label == "" {
		c.label = strings.TrimPrefix(u.Path, "/v1/")
		if c.osrm {
			c.label = map[bool]string{true: "osrm table", false: "osrm route"}[c.size > 0]
		}
		if c.size > 0 {
			c.label += fmt.Sprintf(" %dx%d", c.size, c.size)
		}
		if c.same {
			c.label += " same"
		}
	}
	return c, nil
}

func main() {
	c, err := parseFlags()
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, c); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config) error {
	pts, err := samplePoints(ctx, c.pbf, c.seed)
	if err != nil {
		return err
	}
	bodies := makeBodies(pts, c)
	if c.dump != "" {
		return dumpBodies(c.dump, bodies)
	}
	u, _ := url.Parse(c.url)
	if c.warmup > 0 {
		if _, err := load(ctx, c, u, bodies, c.warmup); err != nil {
			return err
		}
	}
	res, err := load(ctx, c, u, bodies, c.duration)
	if err != nil {
		return err
	}
	if c.header {
		fmt.Println(header())
	}
	fmt.Println(res.row(c.label))
	return nil
}
