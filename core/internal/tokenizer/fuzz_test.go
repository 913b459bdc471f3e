package tokenizer

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

func mustFromJSON(tb testing.TB, rel string) *Tokenizer {
	tb.Helper()
	data, err := os.ReadFile(testkit.Shared(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	t, err := FromJSON(data)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// The fused ASCII path (bertASCII) is a fast path of the general
// normalizer -> pre-tokenizer -> WordPiece pipeline; both must agree.
func checkFastPath(tb testing.TB, fast, slow *Tokenizer, text string) {
	tb.Helper()
	if got, want := fast.Encode(text), slow.Encode(text); !slices.Equal(got, want) {
		tb.Fatalf("%q: fast path %v, general path %v", text, got, want)
	}
}

func TestFastPathEquivalence(t *testing.T) {
	fast := mustFromJSON(t, "models/m2v-fixtures/float32/tokenizer.json")
	slow := mustFromJSON(t, "models/m2v-fixtures/float32/tokenizer.json")
	if !fast.bertFast {
		t.Fatal("the BERT fixture should take the fast path")
	}
	slow.bertFast = false
	texts := []string{
		"", " ", "Hello, World!", "tab\tsep\r\nline", "ctrl\x00\x01\x7fchars",
		"MiXeD CaSe_snake-kebab 3.14e-9 C:\\Users\\x", "[CLS] [UNK] [cls] x[SEP]y",
		"averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongword!",
	}
	for _, r := range readRefs(t, "m2v-fixtures-float32.jsonl") {
		texts = append(texts, r.Text)
	}
	for _, s := range texts {
		checkFastPath(t, fast, slow, s)
	}
}

func FuzzEncode(f *testing.F) {
	for _, s := range []string{"Hello, World!", "CAFÉ crème", "日本語のテキスト", "a\x00b", "[UNK]x", "İstanbul", "\xff\xfe"} {
		f.Add(s)
	}
	fast := mustFromJSON(f, "models/m2v-fixtures/float32/tokenizer.json")
	slow := mustFromJSON(f, "models/m2v-fixtures/float32/tokenizer.json")
	slow.bertFast = false
	uni := mustFromJSON(f, "models/m2v-fixtures/vocab-quantized/tokenizer.json")
	f.Fuzz(func(t *testing.T, s string) {
		checkFastPath(t, fast, slow, s)
		for _, id := range uni.Encode(s) {
			if id < 0 || int(id) >= uni.VocabSize() {
				t.Fatalf("%q: id %d outside the vocabulary", s, id)
			}
		}
	})
}

func FuzzFromJSON(f *testing.F) {
	f.Add([]byte(`{"model":{"type":"WordPiece","vocab":{"[UNK]":0,"a":1,"##b":2}},"normalizer":{"type":"BertNormalizer"},"pre_tokenizer":{"type":"BertPreTokenizer"}}`))
	f.Add([]byte(`{"model":{"type":"Unigram","unk_id":0,"vocab":[["<unk>",0],["▁a",-1],["b",-2]]},"pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true}}`))
	f.Add([]byte(`{"model":{"type":"Unigram","vocab":[]},"normalizer":{"type":"Sequence","normalizers":[{"type":"Replace","pattern":{"Regex":"\\s+"},"content":" "},{"type":"Strip"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tok, err := FromJSON(data)
		if err != nil {
			return
		}
		for _, id := range tok.Encode("Hello, world! ab ▁a b [UNK]") {
			if id < 0 || int(id) >= tok.VocabSize() {
				t.Fatalf("id %d outside a vocabulary of %d", id, tok.VocabSize())
			}
		}
	})
}

func FuzzDecodeCache(f *testing.F) {
	dir := f.TempDir()
	path := testkit.Shared(f, "models/m2v-fixtures/vocab-quantized/tokenizer.json")
	if _, err := Load(path, dir); err != nil {
		f.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) != 1 {
		f.Fatalf("cache files %v", files)
	}
	good, err := os.ReadFile(files[0])
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good[:4096])
	f.Add([]byte(cacheMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		tok, err := decodeCache(b)
		if err != nil {
			return
		}
		tok.Encode("hello world")
	})
}

func TestCorruptCacheFallsBack(t *testing.T) {
	dir := t.TempDir()
	path := testkit.Shared(t, "models/glove-120k/tokenizer.json")
	want := mustFromJSON(t, "models/glove-120k/tokenizer.json").Encode("the quick brown fox")
	if _, err := Load(path, dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	tests := []struct {
		name   string
		mangle func([]byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
		{"bad magic", func(b []byte) []byte { b[0] = 'X'; return b }},
		{"empty", func([]byte) []byte { return nil }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(files[0], tc.mangle(b), 0o644); err != nil {
				t.Fatal(err)
			}
			tok, err := Load(path, dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := tok.Encode("the quick brown fox"); !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
			tok.Close()
			if _, err := openCache(files[0]); err != nil {
				t.Errorf("cache not rewritten: %v", err)
			}
		})
	}
}

func TestUnwritableCacheDir(t *testing.T) {
	// A regular file where the cache directory should be: no cache can be
	// written, even by root, and Load must still work from the JSON.
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tok, err := Load(testkit.Shared(t, "models/glove-120k/tokenizer.json"), filepath.Join(notDir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tok.Encode("the quick brown fox")) != 4 {
		t.Errorf("ids %v", tok.Encode("the quick brown fox"))
	}
}

func FuzzCollapseSpace(f *testing.F) {
	for _, s := range []string{"a  b", " \t\n x \u00a0\u3000y ", "\u0085\v\f", "", "\xff  \xfe"} {
		f.Add(s)
	}
	re, err := parseNormalizer([]byte(`{"type":"Replace","pattern":{"Regex":"(?:\\s)+"},"content":" "}`))
	if err != nil {
		f.Fatal(err)
	}
	fast, err := parseNormalizer([]byte(`{"type":"Replace","pattern":{"Regex":"\\s+"},"content":" "}`))
	if err != nil {
		f.Fatal(err)
	}
	if _, ok := fast.(collapseSpace); !ok {
		f.Fatalf("\\s+ took the regexp path: %T", fast)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // tokenizers only ever sees valid UTF-8 after normalization
		}
		if got, want := fast.normalize(s), re.normalize(s); got != want {
			t.Fatalf("%q: collapse %q, regexp %q", s, got, want)
		}
	})
}

func TestCacheReplacesStaleEntry(t *testing.T) {
	src, err := os.ReadFile(testkit.Shared(t, "models/m2v-fixtures/float32/tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tokenizer.json")
	dir := t.TempDir()
	for i, mtime := range []time.Time{time.Unix(1e9, 0), time.Unix(2e9, 0)} {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		tok, err := Load(path, dir)
		if err != nil {
			t.Fatal(err)
		}
		tok.Close()
		files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
		if len(files) != 1 {
			t.Fatalf("load %d: cache holds %v, want one entry", i, files)
		}
	}
}
