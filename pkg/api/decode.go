package api

// This file holds the four public decoders: each walks the top-level object of its request, dispatching known
// members to the field decoders of decode_fields.go and skipping unknown ones (spec section 9: clients and
// servers must tolerate unknown fields), then checks required members and reports.

// DecodeDirections decodes and validates a POST /directions body.
func DecodeDirections(body []byte) (DirectionsRequest, *InvalidRequest) {
	req := DirectionsRequest{Profile: DefaultProfile, Alternatives: DefaultAlternatives, GeometryFormat: DefaultGeometryFormat}
	// The coordinates are collected on the stack and copied once into a slice of the exact size.
	var scratch [MaxDirectionsCoordinates]Coordinate
	var coords []Coordinate
	d := decoder{s: scanner{data: body}}
	var seen memberSet
	for d.nextMember(&seen) {
		switch d.member {
		case memberCoordinates:
			coords = d.coordinateList(memberPointer("coordinates"), scratch[:0], MinDirectionsCoordinates, MaxDirectionsCoordinates)
		case memberProfile:
			req.Profile = d.profile(req.Profile)
		case memberDepartureTime:
			req.DepartureTime, req.HasDepartureTime = d.departureTime()
		case memberAlternatives:
			req.Alternatives = d.alternatives(req.Alternatives)
		case memberGeometryFormat:
			req.GeometryFormat = d.geometryFormat(req.GeometryFormat)
		case memberIncludeSteps:
			req.IncludeSteps = d.boolean(memberPointer("include_steps"), req.IncludeSteps)
		default:
			d.s.skipValue()
		}
	}
	d.require(seen, memberCoordinates, "an array of %d to %d coordinates [longitude, latitude]", MinDirectionsCoordinates, MaxDirectionsCoordinates)
	if inv := d.result(); inv != nil {
		return DirectionsRequest{}, inv
	}
	req.Coordinates = clone(coords)
	return req, nil
}

// DecodeMatrix decodes and validates a POST /matrix body.
func DecodeMatrix(body []byte) (MatrixRequest, *InvalidRequest) {
	req := MatrixRequest{Profile: DefaultProfile}
	var sourceScratch, targetScratch [MaxMatrixLocations]Coordinate
	var sources, targets []Coordinate
	d := decoder{s: scanner{data: body}}
	var seen memberSet
	for d.nextMember(&seen) {
		switch d.member {
		case memberSources:
			sources = d.coordinateList(memberPointer("sources"), sourceScratch[:0], MinMatrixLocations, MaxMatrixLocations)
		case memberTargets:
			targets = d.coordinateList(memberPointer("targets"), targetScratch[:0], MinMatrixLocations, MaxMatrixLocations)
		case memberProfile:
			req.Profile = d.profile(req.Profile)
		case memberDepartureTime:
			req.DepartureTime, req.HasDepartureTime = d.departureTime()
		default:
			d.s.skipValue()
		}
	}
	d.require(seen, memberSources, "an array of %d to %d coordinates [longitude, latitude]", MinMatrixLocations, MaxMatrixLocations)
	d.require(seen, memberTargets, "an array of %d to %d coordinates [longitude, latitude]", MinMatrixLocations, MaxMatrixLocations)
	if inv := d.result(); inv != nil {
		return MatrixRequest{}, inv
	}
	req.Sources, req.Targets = clone(sources), clone(targets)
	return req, nil
}

// DecodeIsochrone decodes and validates a POST /isochrone body.
func DecodeIsochrone(body []byte) (IsochroneRequest, *InvalidRequest) {
	req := IsochroneRequest{Profile: DefaultProfile}
	var scratch [MaxContours]Contour
	var contours []Contour
	d := decoder{s: scanner{data: body}}
	var seen memberSet
	for d.nextMember(&seen) {
		switch d.member {
		case memberOrigin:
			req.Origin, _ = d.coordinate(memberPointer("origin"))
		case memberContours:
			contours = d.contours(scratch[:0])
		case memberProfile:
			req.Profile = d.profile(req.Profile)
		case memberDepartureTime:
			req.DepartureTime, req.HasDepartureTime = d.departureTime()
		default:
			d.s.skipValue()
		}
	}
	d.require(seen, memberOrigin, "a coordinate [longitude, latitude]")
	d.require(seen, memberContours, "an array of %d to %d contours", MinContours, MaxContours)
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
	d := decoder{s: scanner{data: body}}
	var seen memberSet
	for d.nextMember(&seen) {
		switch d.member {
		case memberCoordinates:
			coords = d.coordinateList(memberPointer("coordinates"), scratch[:0], MinElevationCoordinates, MaxElevationCoordinates)
		default:
			d.s.skipValue()
		}
	}
	d.require(seen, memberCoordinates, "an array of %d to %d coordinates [longitude, latitude]", MinElevationCoordinates, MaxElevationCoordinates)
	if inv := d.result(); inv != nil {
		return ElevationRequest{}, inv
	}
	return ElevationRequest{Coordinates: clone(coords)}, nil
}

// clone copies a slice collected in stack scratch space to the heap, at its exact length.
func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}
