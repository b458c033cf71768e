package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mapsco/maps/pkg/polyline"
)

// request is one directions request as both engines are asked it: two or more points, a profile, how many
// alternatives, and bearings ([degrees, tolerance] per point, nil for none).
type request struct {
	Points       [][2]float64
	Profile      string
	Alternatives int
	Bearings     []*[2]int
}

// answer is one engine's answer: its routes (best first) or why there are none.
type answer struct {
	Routes  []route
	Refused string // the engine's reason when it routed nothing (mapd's 422 detail, OSRM's code)
}

// route is what the checks read of a route: its length, time and full geometry.
type route struct {
	Distance, Duration float64
	Points             [][2]float64 // lon, lat
}

// askMapd sends req to mapd's POST /v1/directions; a 422 is an answer with no route.
func askMapd(ctx context.Context, base string, req request) (answer, error) {
	body := map[string]any{"coordinates": req.Points, "profile": req.Profile, "alternatives": req.Alternatives}
	if req.Bearings != nil {
		body["bearings"] = req.Bearings
	}
	data, _ := json.Marshal(body)
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/directions", bytes.NewReader(data))
	if err != nil {
		return answer{}, err
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(hr)
	if err != nil {
		return answer{}, fmt.Errorf("mapd %s %v: %w", req.Profile, req.Points, err)
	}
	defer resp.Body.Close()
	data, _ = io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusUnprocessableEntity {
		var p struct {
			Detail string `json:"detail"`
		}
		_ = json.Unmarshal(data, &p)
		return answer{Refused: p.Detail}, nil
	}
	if resp.StatusCode != http.StatusOK {
		return answer{}, fmt.Errorf("mapd %s %v: %d %s", req.Profile, req.Points, resp.StatusCode, data)
	}
	var d mapdRoutes
	if err := json.Unmarshal(data, &d); err != nil {
		return answer{}, fmt.Errorf("mapd %s %v: decode: %w", req.Profile, req.Points, err)
	}
	var a answer
	for _, r := range d.Routes {
		pts, err := polyline.Decode([]byte(r.Geometry), 6)
		if err != nil {
			return answer{}, fmt.Errorf("mapd %s %v: geometry: %w", req.Profile, req.Points, err)
		}
		a.Routes = append(a.Routes, route{r.Summary.Distance, r.Summary.Duration, pts})
	}
	return a, nil
}

// askOSRM sends req to osrm-routed's route service (the profile is the one the server was prepared with);
// NoRoute and NoSegment are answers with no route.
func askOSRM(ctx context.Context, base string, req request) (answer, error) {
	coords := make([]string, len(req.Points))
	for i, p := range req.Points {
		coords[i] = fmt.Sprintf("%.7f,%.7f", p[0], p[1])
	}
	url := fmt.Sprintf("%s/route/v1/driving/%s?overview=full&geometries=polyline6", base, strings.Join(coords, ";"))
	if req.Alternatives > 0 {
		url += fmt.Sprintf("&alternatives=%d", req.Alternatives)
	}
	if req.Bearings != nil {
		bs := make([]string, len(req.Bearings))
		for i, b := range req.Bearings {
			if b != nil {
				bs[i] = fmt.Sprintf("%d,%d", b[0], b[1])
			}
		}
		url += "&bearings=" + strings.Join(bs, ";")
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return answer{}, err
	}
	resp, err := client.Do(hr)
	if err != nil {
		return answer{}, fmt.Errorf("osrm %v: %w", req.Points, err)
	}
	defer resp.Body.Close()
	var d struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Routes  []struct {
			Distance float64 `json:"distance"`
			Duration float64 `json:"duration"`
			Geometry string  `json:"geometry"`
		} `json:"routes"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil {
		return answer{}, fmt.Errorf("osrm %v: decode: %w", req.Points, err)
	}
	switch d.Code {
	case "Ok":
	case "NoRoute", "NoSegment":
		return answer{Refused: d.Code + ": " + d.Message}, nil
	default:
		return answer{}, fmt.Errorf("osrm %v: %s %s", req.Points, d.Code, d.Message)
	}
	var a answer
	for _, r := range d.Routes {
		pts, err := polyline.Decode([]byte(r.Geometry), 6)
		if err != nil {
			return answer{}, fmt.Errorf("osrm %v: geometry: %w", req.Points, err)
		}
		a.Routes = append(a.Routes, route{r.Distance, r.Duration, pts})
	}
	return a, nil
}

// engine is one server for one profile: mapd with our profile's name, or osrm-routed prepared with the
// corresponding .lua profile.
type engine struct {
	name, profile, base string
}

func (e engine) ask(ctx context.Context, req request) (answer, error) {
	req.Profile = e.profile
	if e.name == "osrm" {
		return askOSRM(ctx, e.base, req)
	}
	return askMapd(ctx, e.base, req)
}
