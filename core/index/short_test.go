package index

import (
	"context"
	"testing"

	"github.com/vaultctx/vaultctx/core/store"
)

// TestShortNotesAreFound indexes notes made only of short sections and a
// one-line CJK note: each keeps a chunk and is found by its words; an
// empty note yields nothing and is listed by store.Chunkless.
func TestShortNotesAreFound(t *testing.T) {
	v, db := smallVault(t, map[string]string{
		"people/bob.md": "# Bob Smith\n## Phone\n+1 555 0100\n",
		"tokyo.md":      "東京タワーの夜景\n",
		"empty.md":      "---\ntags: [x]\n---\n",
		"long.md":       "# Long\n\nA note long enough to be kept by the ordinary rules of the chunker.\n",
	})
	mustRun(t, opts(v, db))
	for _, q := range []string{"Bob Smith", "555"} {
		paths, texts := hitsOf(t, db, q)
		if len(paths) == 0 || paths[0] != "people/bob.md" || texts[0] != "# Bob Smith\n## Phone\n+1 555 0100" {
			t.Errorf("search %q: %q %q, want people/bob.md with its whole body", q, paths, texts)
		}
	}
	if paths, _ := hitsOf(t, db, "東京タワー"); len(paths) == 0 || paths[0] != "tokyo.md" {
		t.Errorf("search 東京タワー: %q, want tokyo.md", paths)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.Chunkless(ctx)
	if err != nil || len(got) != 1 || got[0] != "empty.md" {
		t.Errorf("Chunkless = %q, %v; want [empty.md]", got, err)
	}
}

// TestChunkRulesChangeRechunks: an index whose chunks were made under
// other chunking rules (an older binary) re-chunks every file once, even
// where stat and content are unchanged, then trusts hashes again.
func TestChunkRulesChangeRechunks(t *testing.T) {
	v, db := smallVault(t, map[string]string{
		"bob.md":  "# Bob Smith\n## Phone\n+1 555 0100\n",
		"long.md": "# Long\n\nA note long enough to be kept by the ordinary rules of the chunker.\n",
	})
	mustRun(t, opts(v, db))
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetMeta(ctx, store.MetaChunkRules, "1"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if s := mustRun(t, opts(v, db)); s.FilesIndexed != 2 {
		t.Errorf("after a rules change: %+v, want both re-chunked", s)
	}
	if s := mustRun(t, opts(v, db)); s.FilesUnchanged != 2 {
		t.Errorf("next run: %+v, want both unchanged", s)
	}
}
