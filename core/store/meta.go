package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

// Keys of the meta table that other packages read or write. Values are
// strings; "" means unset.
const (
	// MetaSchemaVersion is the schema version of the file (SchemaVersion
	// as a decimal).
	MetaSchemaVersion = "schema_version"
	// MetaModelHash is the hash of the embedding model the vectors were
	// made with (embed.Hash of its directory), "" for a BM25-only index.
	MetaModelHash = "model_hash"
	// MetaModelDir is the absolute directory of that model.
	MetaModelDir = "model_dir"
	// MetaModelName is the model's name from its config.
	MetaModelName = "model_name"
	// MetaVault is the absolute vault root the index was built from.
	MetaVault = "vault"
	// MetaLastIndexTime is the end of the last index run, RFC 3339 UTC.
	MetaLastIndexTime = "last_index_time"
	// MetaFusion is the fusion calibration of hybrid search (a JSON
	// retrieve.Fusion, written by engine.CalibrateFusion after an index
	// run), "" for an index without one.
	MetaFusion = "fusion_calibration"
)

// Keys of the meta table that only the store uses.
const (
	metaVecDim         = "vec_dim"
	metaVecLayout      = "vec_layout"
	metaVecChunk       = "vec_chunk" // chunk_vecs' vec0 chunk_size (listChunk); ListChunk when absent
	metaVecCenter      = "vec_center"
	metaImpactDeltaMax = "impact_delta_max"
	// metaImpactMinDF is the least document frequency of the terms of the
	// last impact build (ImpactMinDF unless a test chose another).
	metaImpactMinDF = "impact_min_df"
	// metaChunkCopies is ChunkCopies at the last impact build, a decimal.
	metaChunkCopies = "chunk_copies"
)

// maxChunkCopies is the largest ChunkCopies a file can hold (more chunks
// than SQLite rowids go in no file): a larger value is damage.
const maxChunkCopies = 1 << 40

// ChunkCopies returns the mean number of chunks per distinct chunk text
// (count of chunks over count of distinct chunks.hash, the sha256 prefix of
// chunk_text), at least 1, as recorded by the last impact build (every full
// index run, and every incremental one that rebuilt the impact index), or
// 0 when the index has no such record (an older file, an empty corpus) or
// a damaged one (not a number from 1 to 2^40). A vault whose sections are copied into many notes has a
// mean well above 1; retrieve.Options.Copies uses it to size the legs'
// windows before near-duplicates are collapsed.
func (s *Store) ChunkCopies(ctx context.Context) (float64, error) {
	v, err := s.Meta(ctx, metaChunkCopies)
	if err != nil || v == "" {
		return 0, err
	}
	c, err := strconv.ParseFloat(v, 64)
	if err != nil || !(c >= 1) || c > maxChunkCopies {
		return 0, nil // damaged: unknown (the next incremental run rewrites it)
	}
	return c, nil
}

// Meta returns the value stored under key in the meta table, or "" when the
// key is absent. A read-only store answers from the table as it was at
// Open.
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	if s.meta != nil {
		return s.meta[key], nil
	}
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read meta %s: %w", key, err)
	}
	return v, nil
}

// snapshotMeta reads the whole meta table into s.meta, which Meta then
// answers from.
func (s *Store) snapshotMeta(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "SELECT key, value FROM meta")
	if err != nil {
		return fmt.Errorf("read meta: %w", err)
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return fmt.Errorf("read meta: %w", err)
		}
		m[k] = v
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read meta: %w", err)
	}
	s.meta = m
	return nil
}

// SetMeta stores value under key in the meta table.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	if err != nil {
		return fmt.Errorf("write meta %s: %w", key, err)
	}
	return nil
}
