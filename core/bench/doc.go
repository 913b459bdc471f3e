// Package bench measures indexing and search speed on a vault, all in one
// run on a private copy of it (the vault itself is never written): a full
// index, an incremental run with nothing changed and one after a number of
// edited notes, the index size, the peak RSS, the latency of every search
// mode in process, of the vector leg alone (with its recall@10 against an
// exhaustive scan), of `vaultctx search` and of each hook binary from
// process spawn to exit, and of `grep -rilF` for the same queries.
//
// Run returns a Report; Report.WriteTable prints it and the Report
// marshals to JSON as `vaultctx bench --json` prints it. Latencies are in
// ms, percentiles as eval.Percentile computes them (nearest rank). Times
// are wall times, so they are only comparable within one machine.
package bench
