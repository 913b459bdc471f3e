// Package archtest keeps docs/ARCHITECTURE.md true: its test parses the
// dependency table (| package | provides | depends on |) and compares the
// "depends on" column of each row with the package's direct imports as
// `go list -json` reports them (project packages by their path in the
// module, such as core/store; third-party ones by their module path without
// the host, such as tidwall/gjson or x/text), and checks that every package
// under core/ and internal/ has a row. The package has no code of its own.
package archtest
