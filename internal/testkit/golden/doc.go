// Package golden compares test output with golden files and rewrites them
// when the test binary runs with -update (go test ./pkg -run TestX -update).
// It registers the -update flag, so a test package that imports it must not
// define its own.
package golden
