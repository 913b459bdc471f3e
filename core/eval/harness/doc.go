// Package harness runs an evaluation end to end, as `vaultctx eval` does:
// it loads a judged query set (a BEIR dataset or a vault reference set,
// see package eval), builds or refreshes the index it is scored on with
// the real indexer, opens the engine and runs eval.Run over every mode.
//
// With Options.BEIR, every document becomes one note of a temporary vault
// that is indexed from scratch and deleted afterwards. With
// Options.Queries, the index Options.DB (or the configured one) is scored
// as it is; Options.Vault alone is indexed into a temporary index first;
// Vault with DB brings that index up to date first; Subset indexes a
// reduced copy of Vault.
//
// The package is the cgo side of evaluation (it opens the store through
// core/index and core/engine); package eval keeps the metrics, readers and
// baseline pure Go. Harness errors are typed (ErrX sentinels and error
// types) so a caller can word its own hints.
package harness
