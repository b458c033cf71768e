package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/mapsco/maps/pkg/polyline"
)

// routeResult is one engine's answer for a pair.
type routeResult struct {
	Distance float64    `json:"distance_m"`
	Duration float64    `json:"duration_s"`
	SnapFrom [2]float64 `json:"snap_from"`
	SnapTo   [2]float64 `json:"snap_to"`
	Ways     []wayUse   `json:"ways"`
	UTurns   int        `json:"u_turns"` // turning back at a node that is not a dead end
	geometry [][2]float64
	nodes    []int64
}

var client = &http.Client{Timeout: 60 * time.Second}

// queryMapd asks POST /v1/directions for the car route without alternatives; nil when it answers 422.
func queryMapd(ctx context.Context, base string, a, b [2]float64) (*routeResult, error) {
	body, _ := json.Marshal(map[string]any{"coordinates": [][2]float64{a, b}, "profile": "car", "alternatives": 0})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/directions", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("mapd %v -> %v: %w", a, b, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusUnprocessableEntity {
		return nil, nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("mapd %v -> %v: %d %s", a, b, resp.StatusCode, data)
	}
	var d mapdRoutes
	if err := json.Unmarshal(data, &d); err != nil || len(d.Routes) == 0 {
		return nil, fmt.Errorf("mapd %v -> %v: decode: %v", a, b, err)
	}
	pts, err := polyline.Decode([]byte(d.Routes[0].Geometry), 6)
	if err != nil || len(pts) == 0 {
		return nil, fmt.Errorf("mapd %v -> %v: geometry: %v", a, b, err)
	}
	r := d.Routes[0]
	return &routeResult{Distance: r.Summary.Distance, Duration: r.Summary.Duration, SnapFrom: pts[0], SnapTo: pts[len(pts)-1], geometry: pts}, nil
}

// queryOSRM asks osrm-routed's route service with the OSM node ids of the path; nil when it finds no route.
func queryOSRM(ctx context.Context, base string, a, b [2]float64) (*routeResult, error) {
	url := fmt.Sprintf("%s/route/v1/driving/%.7f,%.7f;%.7f,%.7f?overview=full&geometries=polyline6&annotations=nodes&alternatives=false",
		base, a[0], a[1], b[0], b[1])
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("osrm %v -> %v: %w", a, b, err)
	}
	defer resp.Body.Close()
	var d struct {
		Code   string `json:"code"`
		Routes []struct {
			Distance float64 `json:"distance"`
			Duration float64 `json:"duration"`
			Legs     []struct {
				Annotation struct {
					Nodes []int64 `json:"nodes"`
				} `json:"annotation"`
			} `json:"legs"`
		} `json:"routes"`
		Waypoints []struct {
			Location [2]float64 `json:"location"`
		} `json:"waypoints"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil {
		return nil, fmt.Errorf("osrm %v -> %v: decode: %w", a, b, err)
	}
	if d.Code == "NoRoute" {
		return nil, nil
	}
	if d.Code != "Ok" || len(d.Routes) == 0 || len(d.Waypoints) != 2 {
		return nil, fmt.Errorf("osrm %v -> %v: code %s", a, b, d.Code)
	}
	r := d.Routes[0]
	out := &routeResult{Distance: r.Distance, Duration: r.Duration, SnapFrom: d.Waypoints[0].Location, SnapTo: d.Waypoints[1].Location}
	for _, l := range r.Legs {
		out.nodes = append(out.nodes, l.Annotation.Nodes...)
	}
	return out, nil
}

// mapdRoutes is the part of a mapd directions answer the comparisons read.
type mapdRoutes struct {
	Routes []struct {
		Summary struct {
			Distance float64 `json:"distance_m"`
			Duration float64 `json:"duration_s"`
		} `json:"summary"`
		Geometry string `json:"geometry"`
	} `json:"routes"`
}
