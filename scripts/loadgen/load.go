package main

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// result is what one measured run saw.
type result struct {
	elapsed   time.Duration
	latencies []time.Duration
	codes     map[int]int // HTTP status → count; 0 counts transport errors
	firstErr  error
}

// load runs c.clients workers posting bodies round-robin for d, each
// starting at its own offset, and merges what they saw.
func load(ctx context.Context, c config, u *url.URL, bodies [][]byte, d time.Duration) (*result, error) {
	hc := &fasthttp.HostClient{Addr: u.Host, MaxConns: c.clients, ReadTimeout: c.timeout, WriteTimeout: c.timeout}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	parts := make([]*result, c.clients)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range c.clients {
		wg.Go(func() { parts[w] = worker(ctx, hc, c, u.RequestURI(), bodies, w) })
	}
	wg.Wait()
	res := &result{elapsed: time.Since(start), codes: map[int]int{}}
	for _, p := range parts {
		res.latencies = append(res.latencies, p.latencies...)
		for code, n := range p.codes {
			res.codes[code] += n
		}
		if res.firstErr == nil {
			res.firstErr = p.firstErr
		}
	}
	if len(res.latencies) == 0 {
		return nil, fmt.Errorf("no request completed in %v: %v", d, res.firstErr)
	}
	return res, nil
}

func worker(ctx context.Context, hc *fasthttp.HostClient, c config, uri string, bodies [][]byte, w int) *result {
	res := &result{codes: map[int]int{}}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.SetContentType("application/json")
	get := c.osrm || c.tiles != ""
	if get {
		req.Header.SetMethod(fasthttp.MethodGet)
	}
	if c.close {
		req.Header.SetConnectionClose()
	}
	req.SetRequestURI(uri)
	req.Header.SetHost(hc.Addr)
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	for i := w; ctx.Err() == nil; i += c.clients {
		if get {
			req.SetRequestURIBytes(bodies[i%len(bodies)])
		} else {
			req.SetBodyRaw(bodies[i%len(bodies)])
		}
		t := time.Now()
		err := hc.DoTimeout(req, resp, c.timeout)
		lat := time.Since(t)
		if err != nil {
			res.codes[0]++
			if res.firstErr == nil {
				res.firstErr = err
			}
			continue
		}
		res.codes[resp.StatusCode()]++
		res.latencies = append(res.latencies, lat)
		if c.retryAfter {
			waitRetryAfter(ctx, resp)
		}
	}
	return res
}

// waitRetryAfter sleeps for the answer's Retry-After seconds (a 503 from
// load shedding, a 429), or until ctx ends.
func waitRetryAfter(ctx context.Context, resp *fasthttp.Response) {
	code := resp.StatusCode()
	secs, err := strconv.Atoi(string(resp.Header.Peek("Retry-After")))
	if (code != fasthttp.StatusServiceUnavailable && code != fasthttp.StatusTooManyRequests) || err != nil || secs <= 0 {
		return
	}
	t := time.NewTimer(time.Duration(secs) * time.Second)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
