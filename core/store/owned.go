package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
)

// queryOwned runs query on a pooled connection through the driver itself
// and calls fn with each row's values: int64, float64, string, []byte or
// nil. The []byte values belong to fn and stay valid after it returns.
//
// database/sql copies every []byte it scans into a *[]byte, and
// go-sqlite3 has already copied the blob out of SQLite into a fresh slice
// per row (C.GoBytes) that the driver never reuses. For the posting lists
// and chunk lengths a search reads, up to a few MB, the second copy cost
// a fresh page of memory per 4 KiB, which a process that lives for one
// query pays for in page faults. TestQueryOwned checks that the slices of
// earlier rows survive later ones.
func (s *Store) queryOwned(ctx context.Context, query string, args []any, fn func(vals []driver.Value) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		qc, ok := dc.(driver.QueryerContext)
		if !ok {
			return errors.New("driver connection cannot query")
		}
		named := make([]driver.NamedValue, len(args))
		for i, a := range args {
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
		}
		rows, err := qc.QueryContext(ctx, query, named)
		if err != nil {
			return err
		}
		defer rows.Close()
		vals := make([]driver.Value, len(rows.Columns()))
		for {
			clear(vals)
			switch err := rows.Next(vals); {
			case errors.Is(err, io.EOF):
				return nil
			case err != nil:
				return err
			}
			if err := fn(vals); err != nil {
				return err
			}
		}
	})
}

// valInt64 returns a column value as an integer (NULL is 0).
func valInt64(v driver.Value) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case nil:
		return 0, nil
	}
	return 0, fmt.Errorf("column holds %T, want an integer", v)
}

// valBytes returns a column value as bytes (NULL is nil; text is
// converted).
func valBytes(v driver.Value) ([]byte, error) {
	switch x := v.(type) {
	case []byte:
		return x, nil
	case string:
		return []byte(x), nil
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("column holds %T, want a blob", v)
}

// valString returns a column value as a string (NULL is "").
func valString(v driver.Value) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case []byte:
		return string(x), nil
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("column holds %T, want text", v)
}
