// Package srccheck holds tests that read the repository's own Go source for
// rules the compiler and go vet do not enforce. It has no code to import.
package srccheck
