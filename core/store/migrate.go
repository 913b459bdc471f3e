package store

import (
	"context"
	"fmt"
)

// addedColumns are the columns added to schema 1 after it shipped, as
// table, column and definition. They only add information with a default
// that means "unknown", so an older binary still reads and writes a
// migrated file, and this one reads an older file once migrate ran: a
// file keeps schema version 1 and needs no rebuild.
var addedColumns = [][3]string{
	{"files", "ctime_ns", "INTEGER NOT NULL DEFAULT 0"},
	{"files", "inode", "INTEGER NOT NULL DEFAULT 0"},
	{"skips", "unreadable", "INTEGER NOT NULL DEFAULT 0"},
}

// migrate adds the columns of addedColumns that a file written by an older
// binary lacks (schema.sql's CREATE TABLE IF NOT EXISTS leaves an existing
// table as it is). It runs in every writer's Open and costs one
// table_info query per table when nothing is missing.
func (s *Store) migrate(ctx context.Context) error {
	have := map[string]map[string]bool{}
	for _, c := range addedColumns {
		table := c[0]
		if have[table] == nil {
			cols, err := s.columns(ctx, table)
			if err != nil {
				return err
			}
			have[table] = cols
		}
		if have[table][c[1]] {
			continue
		}
		if _, err := s.db.ExecContext(ctx, "ALTER TABLE "+table+" ADD COLUMN "+c[1]+" "+c[2]); err != nil {
			return fmt.Errorf("migrate: add %s.%s: %w", table, c[1], err)
		}
	}
	return nil
}

// columns returns the column names of table.
func (s *Store) columns(ctx context.Context, table string) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, fmt.Errorf("migrate: columns of %s: %w", table, err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("migrate: columns of %s: %w", table, err)
		}
		out[n] = true
	}
	return out, rows.Err()
}

// dropUnstemmed upgrades a schema 2 file to SchemaVersion in one
// transaction: it drops chunks_exact and the triggers that fed it, creates
// the triggers of schema.sql again, and records the new version. Nothing
// else differs, so the file needs no rebuild; the table's pages go to the
// free list, which the next full index or Seal returns.
func (s *Store) dropUnstemmed(ctx context.Context) error {
	wrap := func(err error) error { return fmt.Errorf("migrate: drop chunks_exact: %w", err) }
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return wrap(err)
	}
	defer tx.Rollback()
	for _, q := range []string{"DROP TRIGGER IF EXISTS chunks_ai", "DROP TRIGGER IF EXISTS chunks_ad", "DROP TRIGGER IF EXISTS chunks_au", "DROP TABLE IF EXISTS chunks_exact", schemaSQL} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return wrap(err)
		}
	}
	if _, err := tx.ExecContext(ctx, "UPDATE meta SET value = ? WHERE key = ?", fmt.Sprint(SchemaVersion), MetaSchemaVersion); err != nil {
		return wrap(err)
	}
	if err := tx.Commit(); err != nil {
		return wrap(err)
	}
	return nil
}
