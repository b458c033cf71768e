package api

import (
	"time"

	"github.com/mapsco/maps/pkg/jsonscan"
)

// This file holds the four public decoders: each walks the top-level object of its request, dispatching its
// members to the field decoders of decode_fields.go and reporting any other (decode_unknown.go; spec section 9
// asks clients to tolerate unknown fields in responses, but a request member we do not know is a question we
// would answer wrongly), then checks required members and reports.

// DecodeDirections decodes and validates a POST /directions body.
func DecodeDirections(body []byte) (DirectionsRequest, *InvalidRequest) {
	req := DirectionsRequest{Profile: DefaultProfile, Alternatives: DefaultAlternatives, GeometryFormat: DefaultGeometryFormat}
	// The coordinates are collected on the stack and copied once into a slice of the exact size.
	var scratch [MaxDirectionsCoordinates]Coordinate
	var radiusScratch [MaxDirectionsCoordinates]float64
	var bearingScratch [MaxDirectionsCoordinates]Bearing
	var coords []Coordinate
	var radiuses []float64
	var bearings []Bearing
	nRadiuses, nBearings, points := -1, -1, 0
	var av avoidRead
	d := decoder{s: jsonscan.New(body)}
	var seen memberSet
	for d.nextMember(&seen) {
		switch d.member {
		case memberCoordinates:
			coords = d.coordinateList(memberPointer("coordinates"), scratch[:0], MinDirectionsCoordinates, MaxDirectionsCoordinates)
			points = d.items
		case memberProfile:
			req.Profile = av.profile(&d, req.Profile)
		case memberDepartureTime:
			req.DepartureTime, req.HasDepartureTime = d.departureTime()
		case memberAlternatives:
			req.Alternatives = d.alternatives(req.Alternatives)
		case memberGeometryFormat:
			req.GeometryFormat = d.geometryFormat(req.GeometryFormat)
		case memberIncludeSteps:
			req.IncludeSteps = d.boolean(memberPointer("include_steps"), req.IncludeSteps)
		case memberRadiuses:
			radiuses, nRadiuses = d.radiusList(memberPointer("radiuses"), radiusScratch[:0], MaxDirectionsCoordinates)
		case memberBearings:
			bearings, nBearings = d.bearingList(memberPointer("bearings"), bearingScratch[:0], MaxDirectionsCoordinates)
		case memberLanguage:
			req.Language = d.language(req.Language)
		case memberExclude:
			req.Exclude = d.exclude()
		case memberVehicle:
			req.Vehicle = d.vehicle()
		case memberAvoidAreas, memberMaxHikingDifficulty, memberAvoidSteps:
			av.read(&d)
		default:
			d.unknownMember(namePointer(d.name), "a directions request", directionsMembers)
		}
	}
	d.require(seen, memberCoordinates, "an array of %d to %d coordinates [longitude, latitude]", MinDirectionsCoordinates, MaxDirectionsCoordinates)
	d.perPoint(memberPointer("radiuses"), nRadiuses, points, "radius")
	d.perPoint(memberPointer("bearings"), nBearings, points, "bearing")
	d.vehicleApplies(seen, req.Profile)
	req.Avoid = av.check(&d, req.Profile)
	av.inside(&d, "coordinates", coords)
	if inv := d.result(); inv != nil {
		return DirectionsRequest{}, inv
	}
	req.Coordinates, req.Radiuses, req.Bearings = clone(coords), clone(radiuses), clone(bearings)
	return req, nil
}

// DecodeMatrix decodes and validates a POST /matrix body.
func DecodeMatrix(body []byte) (MatrixRequest, *InvalidRequest) {
	req := MatrixRequest{Profile: DefaultProfile}
	var sourceScratch, targetScratch [MaxMatrixLocations]Coordinate
	var sources, targets []Coordinate
	var src, dst pointOptions
	nSources, nTargets := 0, 0
	var av avoidRead
	d := decoder{s: jsonscan.New(body)}
	var seen memberSet
	for d.nextMember(&seen) {
		switch d.member {
		case memberSources:
			sources = d.coordinateList(memberPointer("sources"), sourceScratch[:0], MinMatrixLocations, MaxMatrixLocations)
			nSources = d.items
		case memberTargets:
			targets = d.coordinateList(memberPointer("targets"), targetScratch[:0], MinMatrixLocations, MaxMatrixLocations)
			nTargets = d.items
		case memberProfile:
			req.Profile = av.profile(&d, req.Profile)
		case memberDepartureTime:
			req.DepartureTime, req.HasDepartureTime = d.departureTime()
		case memberSourceRadiuses, memberSourceBearings:
			src.read(&d)
		case memberTargetRadiuses, memberTargetBearings:
			dst.read(&d)
		case memberExclude:
			req.Exclude = d.exclude()
		case memberVehicle:
			req.Vehicle = d.vehicle()
		case memberAvoidAreas, memberMaxHikingDifficulty, memberAvoidSteps:
			av.read(&d)
		default:
			d.unknownMember(namePointer(d.name), "a matrix request", matrixMembers)
		}
	}
	d.require(seen, memberSources, "an array of %d to %d coordinates [longitude, latitude]", MinMatrixLocations, MaxMatrixLocations)
	d.require(seen, memberTargets, "an array of %d to %d coordinates [longitude, latitude]", MinMatrixLocations, MaxMatrixLocations)
	src.check(&d, memberSourceRadiuses, memberSourceBearings, nSources)
	dst.check(&d, memberTargetRadiuses, memberTargetBearings, nTargets)
	d.vehicleApplies(seen, req.Profile)
	req.Avoid = av.check(&d, req.Profile)
	av.inside(&d, "sources", sources)
	av.inside(&d, "targets", targets)
	if inv := d.result(); inv != nil {
		return MatrixRequest{}, inv
	}
	req.Sources, req.Targets = clone(sources), clone(targets)
	req.SourceRadiuses, req.SourceBearings = src.radiuses(), src.bearings()
	req.TargetRadiuses, req.TargetBearings = dst.radiuses(), dst.bearings()
	return req, nil
}

// pointOptions collects the radiuses and bearings of a matrix's sources or targets.
type pointOptions struct {
	radiusScratch  [MaxMatrixLocations]float64
	bearingScratch [MaxMatrixLocations]Bearing
	radiusList     []float64
	bearingList    []Bearing
	nRadiuses      int // items sent, or 0 when absent
	nBearings      int
	hasR, hasB     bool
}

// read reads the member the decoder is at: its radiuses or its bearings.
func (o *pointOptions) read(d *decoder) {
	p := memberPointer(d.member.String())
	if d.member == memberSourceRadiuses || d.member == memberTargetRadiuses {
		o.radiusList, o.nRadiuses = d.radiusList(p, o.radiusScratch[:0], MaxMatrixLocations)
		o.hasR = true
		return
	}
	o.bearingList, o.nBearings = d.bearingList(p, o.bearingScratch[:0], MaxMatrixLocations)
	o.hasB = true
}

// check checks that the lists sent have one item per point.
func (o *pointOptions) check(d *decoder, radiuses, bearings member, points int) {
	if o.hasR {
		d.perPoint(memberPointer(radiuses.String()), o.nRadiuses, points, "radius")
	}
	if o.hasB {
		d.perPoint(memberPointer(bearings.String()), o.nBearings, points, "bearing")
	}
}

func (o *pointOptions) radiuses() []float64 { return clone(o.radiusList) }
func (o *pointOptions) bearings() []Bearing { return clone(o.bearingList) }

// DecodeIsochrone decodes and validates a POST /isochrone body.
func DecodeIsochrone(body []byte) (IsochroneRequest, *InvalidRequest) {
	req := IsochroneRequest{Profile: DefaultProfile}
	var scratch [MaxContours]Contour
	var contours []Contour
	var av avoidRead
	d := decoder{s: jsonscan.New(body)}
	var seen memberSet
	for d.nextMember(&seen) {
		switch d.member {
		case memberOrigin:
			req.Origin, _ = d.coordinate(memberPointer("origin"))
		case memberContours:
			contours = d.contours(scratch[:0])
		case memberProfile:
			req.Profile = av.profile(&d, req.Profile)
		case memberDepartureTime:
			req.DepartureTime, req.HasDepartureTime = d.departureTime()
		case memberRadius:
			req.Radius = d.radius(memberPointer("radius"))
		case memberBearing:
			req.Bearing = d.bearing(memberPointer("bearing"))
		case memberExclude:
			req.Exclude = d.exclude()
		case memberVehicle:
			req.Vehicle = d.vehicle()
		case memberAvoidAreas, memberMaxHikingDifficulty, memberAvoidSteps:
			av.read(&d)
		default:
			d.unknownMember(namePointer(d.name), "an isochrone request", isochroneMembers)
		}
	}
	d.require(seen, memberOrigin, "a coordinate [longitude, latitude]")
	d.require(seen, memberContours, "an array of %d to %d contours", MinContours, MaxContours)
	d.vehicleApplies(seen, req.Profile)
	req.Avoid = av.check(&d, req.Profile)
	if seen.has(memberOrigin) {
		av.inside(&d, "origin", []Coordinate{req.Origin})
	}
	if inv := d.result(); inv != nil {
		return IsochroneRequest{}, inv
	}
	req.Contours = clone(contours)
	return req, nil
}

// DecodeElevation decodes and validates a POST /elevation body.
func DecodeElevation(body []byte) (ElevationRequest, *InvalidRequest) {
	// 16 KB on the stack: large, but it saves five regrowths of a heap slice on a full request.
	var scratch [MaxElevationCoordinates]Coordinate
	var coords []Coordinate
	d := decoder{s: jsonscan.New(body)}
	var seen memberSet
	for d.nextMember(&seen) {
		switch d.member {
		case memberCoordinates:
			coords = d.coordinateList(memberPointer("coordinates"), scratch[:0], MinElevationCoordinates, MaxElevationCoordinates)
		default:
			d.unknownMember(namePointer(d.name), "an elevation request", elevationMembers)
		}
	}
	d.require(seen, memberCoordinates, "an array of %d to %d coordinates [longitude, latitude]", MinElevationCoordinates, MaxElevationCoordinates)
	if inv := d.result(); inv != nil {
		return ElevationRequest{}, inv
	}
	return ElevationRequest{Coordinates: clone(coords)}, nil
}

// DecodeMatch decodes and validates a POST /match body. Its lists are long (2,000 points), so they are collected
// on the heap, each allocated once at the limit's size only when the member is present.
func DecodeMatch(body []byte) (MatchRequest, *InvalidRequest) {
	req := MatchRequest{Profile: DefaultProfile, GeometryFormat: DefaultGeometryFormat}
	var coords []Coordinate
	var radiuses []float64
	var stamps []time.Time
	nRadiuses, nStamps, points := -1, -1, 0
	d := decoder{s: jsonscan.New(body)}
	var seen memberSet
	for d.nextMember(&seen) {
		switch d.member {
		case memberCoordinates:
			coords = d.coordinateList(memberPointer("coordinates"), make([]Coordinate, 0, 64), MinMatchCoordinates, MaxMatchCoordinates)
			points = d.items
		case memberTimestamps:
			stamps, nStamps = d.timestampList(memberPointer("timestamps"), MaxMatchCoordinates)
		case memberRadiuses:
			radiuses, nRadiuses = d.radiusList(memberPointer("radiuses"), make([]float64, 0, 64), MaxMatchCoordinates)
		case memberProfile:
			req.Profile = d.profile(req.Profile)
		case memberGeometryFormat:
			req.GeometryFormat = d.geometryFormat(req.GeometryFormat)
		case memberIncludeSteps:
			req.IncludeSteps = d.boolean(memberPointer("include_steps"), req.IncludeSteps)
		default:
			d.unknownMember(namePointer(d.name), "a match request", matchMembers)
		}
	}
	d.require(seen, memberCoordinates, "an array of %d to %d coordinates [longitude, latitude]", MinMatchCoordinates, MaxMatchCoordinates)
	d.perPoint(memberPointer("radiuses"), nRadiuses, points, "radius")
	d.perPoint(memberPointer("timestamps"), nStamps, points, "timestamp")
	if inv := d.result(); inv != nil {
		return MatchRequest{}, inv
	}
	req.Coordinates, req.Radiuses, req.Timestamps = clone(coords), clone(radiuses), clone(stamps)
	return req, nil
}

// clone copies a slice collected in stack scratch space to the heap, at its exact length.
func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}
