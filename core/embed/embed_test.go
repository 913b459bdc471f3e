package embed

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// modelPath is a model folder under ../shared/models.
func modelPath(tb testing.TB, name string) string { return testkit.Shared(tb, "models", name) }

// mustOpen opens a shared model with a per-test cache directory.
func mustOpen(tb testing.TB, name string) *Model {
	tb.Helper()
	m, err := OpenOptions(modelPath(tb, name), Options{CacheDir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}

type refRow struct {
	ID        string    `json:"id"`
	Text      string    `json:"text"`
	IDs       []int32   `json:"ids"`
	Embedding []float64 `json:"embedding"`
}

func readRefs(tb testing.TB, name string) []refRow {
	tb.Helper()
	return testkit.JSONLines[refRow](tb, testkit.Shared(tb, "models/reference", name))
}

// close reports whether got matches want within rel relative or abs absolute
// error, per component.
func closeTo(got []float32, want []float64, rel, abs float64) (int, bool) {
	if len(got) != len(want) {
		return -1, false
	}
	for i := range got {
		d := math.Abs(float64(got[i]) - want[i])
		if d > abs && d > rel*math.Abs(want[i]) {
			return i, false
		}
	}
	return 0, true
}

func TestReferenceParity(t *testing.T) {
	tests := []struct{ model, refs string }{
		{"glove-120k", "glove-120k.jsonl"},
		{"m2v-fixtures/float32", "m2v-fixtures-float32.jsonl"},
		{"m2v-fixtures/vocab-quantized", "m2v-fixtures-vocab-quantized.jsonl"},
	}
	for _, tc := range tests {
		t.Run(tc.model, func(t *testing.T) {
			m := mustOpen(t, tc.model)
			rows := readRefs(t, tc.refs)
			texts := make([]string, len(rows))
			for i, r := range rows {
				texts[i] = r.Text
			}
			batch, err := m.EncodeBatch(t.Context(), texts)
			if err != nil {
				t.Fatal(err)
			}
			bad := 0
			for i, r := range rows {
				ids, err := m.IDs(r.Text)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(ids, r.IDs) {
					bad++
					t.Errorf("%s: ids differ:\n got %v\nwant %v", r.ID, ids, r.IDs)
					continue
				}
				one, err := m.Encode(r.Text)
				if err != nil {
					t.Fatal(err)
				}
				if k, ok := closeTo(one, r.Embedding, 1e-5, 1e-6); !ok {
					bad++
					t.Errorf("%s: Encode component %d = %v, want %v", r.ID, k, one[max(k, 0)], r.Embedding[max(k, 0)])
				}
				if !slices.Equal(one, batch[i]) {
					bad++
					t.Errorf("%s: EncodeBatch differs from Encode", r.ID)
				}
				if bad > 10 {
					t.Fatal("too many differences")
				}
			}
		})
	}
}

func readFixture(tb testing.TB, name string) []float64 {
	tb.Helper()
	data, err := os.ReadFile(modelPath(tb, "m2v-fixtures/"+name))
	if err != nil {
		tb.Fatal(err)
	}
	var v [][]float64
	if err := json.Unmarshal(data, &v); err != nil {
		tb.Fatal(err)
	}
	return v[0]
}

// The model2vec-rs fixtures: "hello world" (short) and 1,000 repetitions of
// "hello " (long, cut to 512 tokens). The F16 and I8 models are roundings of
// the F32 one, so they reproduce its vectors to their own precision: F16 to
// 1e-3 absolute (11-bit mantissa), I8 (127 levels) to 1e-2 absolute.
func TestFixtureEmbeddings(t *testing.T) {
	short, long := "hello world", strings.Repeat("hello ", 1000)
	tests := []struct {
		name, model, text, fixture string
		dtype                      string
		rel, abs                   float64
	}{
		{"f32 short", "float32", short, "embeddings_short.json", "F32", 1e-5, 1e-6},
		{"f32 long", "float32", long, "embeddings_long.json", "F32", 1e-5, 1e-6},
		{"f16 short", "float16", short, "embeddings_short.json", "F16", 0, 1e-3},
		{"f16 long", "float16", long, "embeddings_long.json", "F16", 0, 1e-3},
		{"i8 short", "int8", short, "embeddings_short.json", "I8", 0, 1e-2},
		{"i8 long", "int8", long, "embeddings_long.json", "I8", 0, 1e-2},
		{"vocab-quantized long", "vocab-quantized", long, "embeddings_vocab_quantized.json", "F32", 1e-5, 1e-6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustOpen(t, "m2v-fixtures/"+tc.model)
			if m.DType() != tc.dtype {
				t.Fatalf("dtype %s, want %s", m.DType(), tc.dtype)
			}
			want := readFixture(t, tc.fixture)
			if m.Dim() != len(want) {
				t.Fatalf("Dim() = %d, want %d", m.Dim(), len(want))
			}
			got, err := m.Encode(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if k, ok := closeTo(got, want, tc.rel, tc.abs); !ok {
				t.Errorf("component %d: got %v, want %v", k, got, want)
			}
		})
	}
}

func TestEncodeEdgeCases(t *testing.T) {
	m := mustOpen(t, "glove-120k")
	tests := []struct {
		name, text string
		zero       bool
	}{
		{"empty", "", true},
		{"spaces", "   \t\n", true},
		{"only unknown words", "qwzxv zzqxj", true},
		{"control characters", "\x00\x01\x02", true},
		{"word", "search", false},
		{"invalid utf-8", "search \xff\xfe engine", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := m.Encode(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(v) != 100 {
				t.Fatalf("len %d, want 100", len(v))
			}
			var norm float64
			for _, x := range v {
				norm += float64(x) * float64(x)
			}
			if tc.zero && norm != 0 {
				t.Errorf("norm² %v, want the zero vector", norm)
			}
			if !tc.zero && math.Abs(norm-1) > 1e-5 {
				t.Errorf("norm² %v, want 1", norm)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(dir); !errors.Is(err, ErrNotModel) {
		t.Fatalf("empty dir: %v, want ErrNotModel", err)
	}
	if _, err := Open(filepath.Join(dir, "nope")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing dir: %v, want ErrNotExist", err)
	}
	tok, err := os.ReadFile(modelPath(t, "m2v-fixtures/float32/tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	write("tokenizer.json", string(tok))
	write("config.json", `{"normalize": true}`)
	tests := []struct{ name, safetensors string }{
		{"short file", "abc"},
		{"header beyond file", "\xff\x00\x00\x00\x00\x00\x00\x00{}"},
		{"bad json", "\x02\x00\x00\x00\x00\x00\x00\x00{x"},
		{"no embeddings", "\x02\x00\x00\x00\x00\x00\x00\x00{}"},
		{"offsets past end", "\x46\x00\x00\x00\x00\x00\x00\x00" + `{"embeddings":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}` + "  "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			write("model.safetensors", tc.safetensors)
			if _, err := Open(dir); !errors.Is(err, ErrCorrupt) {
				t.Errorf("got %v, want ErrCorrupt", err)
			}
		})
	}
}

func TestHashIdentity(t *testing.T) {
	a := mustOpen(t, "m2v-fixtures/float32")
	b := mustOpen(t, "m2v-fixtures/float16")
	ha, err := a.Hash()
	if err != nil {
		t.Fatal(err)
	}
	hb, err := b.Hash()
	if err != nil {
		t.Fatal(err)
	}
	if ha == hb || len(ha) != 64 {
		t.Fatalf("hashes %q and %q: want two distinct sha256 digests", ha, hb)
	}
	// Same files, warm digest cache, new process-like Model: same hash.
	cache := t.TempDir()
	for i := 0; i < 2; i++ {
		m, err := OpenOptions(modelPath(t, "m2v-fixtures/float32"), Options{CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		h, err := m.Hash()
		if err != nil || h != ha {
			t.Fatalf("run %d: hash %q, %v; want %q", i, h, err, ha)
		}
		m.Close()
	}
}

func TestEncodeBatchSmallAndCancelled(t *testing.T) {
	m := mustOpen(t, "m2v-fixtures/float16")
	texts := []string{"alpha", "beta gamma", "", "delta"}
	for n := 0; n <= len(texts); n++ {
		got, err := m.EncodeBatch(t.Context(), texts[:n])
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != n {
			t.Fatalf("%d texts gave %d vectors", n, len(got))
		}
		for i := range got {
			want, _ := m.Encode(texts[i])
			if !slices.Equal(got[i], want) {
				t.Errorf("n=%d text %d: batch %v, Encode %v", n, i, got[i], want)
			}
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := m.EncodeBatch(ctx, texts); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestEncodeBatchDenseOrRows: a batch long enough to decode the whole
// matrix (denseWorth) and one that decodes a row per token both give
// Encode's vectors, bit for bit.
func TestEncodeBatchDenseOrRows(t *testing.T) {
	m := mustOpen(t, "glove-120k")
	words := strings.Fields("the index keeps every note in chunks of about two thousand characters; a query walks the posting lists of its rarest words first, then scores the chunks that remain with BM25 and the vector of the whole question")
	text := func(i, n int) string {
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteString(words[(i*7+j*3)%len(words)])
			b.WriteByte(' ')
		}
		return b.String()
	}
	for _, tc := range []struct {
		name  string
		n     int // texts
		words int // words a text
		dense bool
	}{
		{"rows", 2 * BatchSize, 30, false},
		{"dense", 2 * BatchSize, 2000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			texts := make([]string, tc.n)
			for i := range texts {
				texts[i] = text(i, tc.words)
			}
			batch, err := m.EncodeBatch(t.Context(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.denseWorth(texts); got != tc.dense { // after EncodeBatch loaded the tokenizer
				t.Fatalf("denseWorth = %v, want %v", got, tc.dense)
			}
			for i, s := range texts {
				one, err := m.Encode(s)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(one, batch[i]) {
					t.Fatalf("text %d: EncodeBatch differs from Encode", i)
				}
			}
		})
	}
}
