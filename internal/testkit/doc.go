// Package testkit holds the helpers the project's tests share: where the
// test data is (Shared: ../shared beside the repository, found from this
// file's location, so tests pass from any working folder and any TMPDIR),
// copying a tree of test files (CopyTree), and reading JSON Lines reference
// data such as ../shared/models/reference (JSONLines), and re-running a
// test as the unprivileged user nobody when the tests run as root
// (RunAsNobody, Unix only), since root reads files of any mode.
//
// Golden files are in the subpackage golden, which owns the -update flag
// (a separate package so that importing testkit registers no flag).
//
// It is for _test.go files and test-only packages (internal/hooktest);
// nothing it does is fit for production code: every helper fails the test
// on an error instead of returning it.
package testkit
