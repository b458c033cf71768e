// Package dem reads digital elevation models through GDAL (cgo, by way of
// github.com/airbusgeo/godal) for mapc: Open turns any raster GDAL reads
// into an elevation.Raster, and Build compiles files into the elevation
// sections of a release.
//
// It exists so that GDAL stays out of the serving binary: pkg/elevation,
// which mapd imports to sample heights in place, is pure Go, and only
// cmd/mapc (through pkg/compile) imports this package. cmd/mapd's
// deps_test.go keeps it so.
//
// A raster whose CRS is not EPSG:4326, or whose geotransform is rotated, is
// read through a warped VRT in EPSG:4326 (bilinear). A .zip that GDAL cannot
// open itself is read through /vsizip/ as the file named like the zip.
//
// GDAL datasets are not safe for concurrent use: a Raster belongs to one
// goroutine, and must be closed.
package dem
