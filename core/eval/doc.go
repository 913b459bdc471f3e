// Package eval measures retrieval quality: recall@k, nDCG@k and MRR@k over
// judged query sets, plus per-query latency, for each search mode.
//
// Two kinds of query set are supported:
//
//   - BEIR datasets (Thakur et al., "BEIR: A Heterogeneous Benchmark for
//     Zero-shot Evaluation of Information Retrieval Models", NeurIPS 2021):
//     corpus.jsonl, queries.jsonl and qrels/<split>.tsv, read by LoadBEIR.
//     WriteVault turns a corpus into a vault of one markdown note per
//     document so the real indexer can index it; BEIRSet maps hits back to
//     corpus ids by file name.
//   - Vault reference sets: JSONL lines {"query": ..., "relevant": [...]}
//     whose judgments are vault-relative note paths ("dir/note.md") or
//     sections ("dir/note.md#Heading"), read by ReadVaultQueries.
//
// Run sends every judged query to a Searcher (a small consumer interface the
// engine satisfies) once per mode and returns a Report with the mean of each
// metric, latency percentiles and the vector share (how many queries have a
// hit the vector leg ranked among their first K units, from Hit.Vector);
// Report.WriteTable prints it and the Report
// marshals to JSON. Baseline.Check (or CheckFile) checks a Report against a
// committed Baseline for CI; RecordFile records one.
//
// The metrics follow trec_eval (as wrapped by pytrec_eval, which BEIR uses):
// linear graded gains, log2 discount, ideal DCG over all judged relevant
// documents of the query. See NDCG for the details.
//
// The package is pure Go; it does not import the store. Package
// eval/harness runs an evaluation end to end over the real indexer and
// engine.
package eval
