package embed

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stLayout rebuilds the float32 fixture as a sentence-transformers model:
// config_sentence_transformers.json and modules.json at the root, the
// tokenizer and an "embedding.weight" tensor in 0_StaticEmbedding/.
func stLayout(t *testing.T, normalize bool) string {
	t.Helper()
	src := modelPath(t, "m2v-fixtures/float32")
	root := t.TempDir()
	sub := filepath.Join(root, "0_StaticEmbedding")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tok, err := os.ReadFile(filepath.Join(src, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.ReadFile(filepath.Join(src, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	hlen := binary.LittleEndian.Uint64(st[:8])
	hdr := strings.Replace(string(st[8:8+hlen]), `"embeddings"`, `"embedding.weight"`, 1)
	for len(hdr)%8 != 0 {
		hdr += " "
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(hdr)))
	out = append(append(out, hdr...), st[8+hlen:]...)
	modules := `[{"idx":0,"name":"0","path":"0_StaticEmbedding","type":"sentence_transformers.models.StaticEmbedding"}]`
	if normalize {
		modules = `[{"idx":0,"name":"0","path":"0_StaticEmbedding","type":"sentence_transformers.models.StaticEmbedding"},{"idx":1,"name":"1","path":"1_Normalize","type":"sentence_transformers.models.Normalize"}]`
	}
	for p, data := range map[string][]byte{
		filepath.Join(sub, "tokenizer.json"):                     tok,
		filepath.Join(sub, "model.safetensors"):                  out,
		filepath.Join(root, "config_sentence_transformers.json"): []byte(`{"__version__": {"sentence_transformers": "3.3.1"}}`),
		filepath.Join(root, "modules.json"):                      []byte(modules),
	} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestSentenceTransformersLayout(t *testing.T) {
	native := mustOpen(t, "m2v-fixtures/float32")
	want, err := native.Encode("hello world test sentence")
	if err != nil {
		t.Fatal(err)
	}
	root := stLayout(t, true)
	tests := []struct {
		name, dir string
		normalize bool
	}{
		{"root", root, true},
		{"0_StaticEmbedding opened directly", filepath.Join(root, "0_StaticEmbedding"), true},
		{"no Normalize module", stLayout(t, false), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := OpenOptions(tc.dir, Options{CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if m.Normalize() != tc.normalize || m.Dim() != native.Dim() {
				t.Fatalf("normalize %v dim %d; want %v %d", m.Normalize(), m.Dim(), tc.normalize, native.Dim())
			}
			got, err := m.Encode("hello world test sentence")
			if err != nil {
				t.Fatal(err)
			}
			if tc.normalize && !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
			if !tc.normalize {
				// The plain mean: same direction as the normalised vector.
				var n float64
				for _, x := range got {
					n += float64(x) * float64(x)
				}
				n = math.Sqrt(n)
				if math.Abs(n-1) < 1e-3 {
					t.Errorf("norm %v: the mean was normalised", n)
				}
				for i := range got {
					if math.Abs(float64(got[i])/n-float64(want[i])) > 1e-6 {
						t.Errorf("direction %d: %v, want %v", i, float64(got[i])/n, want[i])
					}
				}
			}
		})
	}
}
