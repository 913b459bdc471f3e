package store

import (
	"bytes"
	"context"
	"database/sql/driver"
	"testing"
)

// The []byte values queryOwned hands out must stay intact after later rows
// and later queries: the driver must not reuse their memory.
func TestQueryOwned(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	if _, err := s.db.ExecContext(ctx, "CREATE TABLE owned_test (id INTEGER PRIMARY KEY, b BLOB, s TEXT)"); err != nil {
		t.Fatal(err)
	}
	want := map[int64][]byte{}
	for id := int64(1); id <= 5; id++ {
		b := bytes.Repeat([]byte{byte(id)}, 20000+int(id)) // over a page: overflow
		want[id] = b
		if _, err := s.db.ExecContext(ctx, "INSERT INTO owned_test VALUES (?, ?, ?)", id, b, "row"); err != nil {
			t.Fatal(err)
		}
	}
	got := map[int64][]byte{}
	read := func() {
		err := s.queryOwned(ctx, "SELECT id, b, s FROM owned_test WHERE id >= ? ORDER BY id", []any{int64(1)}, func(vals []driver.Value) error {
			id, err := valInt64(vals[0])
			if err != nil {
				return err
			}
			b, err := valBytes(vals[1])
			if err != nil {
				return err
			}
			if str, err := valString(vals[2]); err != nil || str != "row" {
				t.Errorf("text column: %q, %v", str, err)
			}
			if _, ok := got[id]; !ok {
				got[id] = b
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	read()
	read() // a second query must not overwrite the first one's slices
	if len(got) != len(want) {
		t.Fatalf("read %d rows, want %d", len(got), len(want))
	}
	for id, b := range want {
		if !bytes.Equal(got[id], b) {
			t.Fatalf("row %d: blob changed after later rows (len %d, first byte %d)", id, len(got[id]), got[id][0])
		}
	}
	if _, err := valInt64("x"); err == nil {
		t.Error("valInt64 accepted text")
	}
}
