package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/vault"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// cutModel writes a copy of the F16 Model2Vec model in src that keeps the
// first dims dimensions of every row (what scripts/weaken-model.py --dims
// does) and returns its folder: the same vocabulary, weaker vectors.
func cutModel(t *testing.T, src string, dims int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(src, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint64(b)
	var header map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &header); err != nil {
		t.Fatal(err)
	}
	var emb struct {
		Dtype   string `json:"dtype"`
		Shape   []int  `json:"shape"`
		Offsets []int  `json:"data_offsets"`
	}
	if err := json.Unmarshal(header["embeddings"], &emb); err != nil || emb.Dtype != "F16" {
		t.Fatalf("embeddings %+v: %v", emb, err)
	}
	data := b[8+n:][emb.Offsets[0]:emb.Offsets[1]]
	rows, dim := emb.Shape[0], emb.Shape[1]
	var out bytes.Buffer
	for i := range rows {
		out.Write(data[i*dim*2 : (i*dim+dims)*2])
	}
	h, _ := json.Marshal(map[string]any{"embeddings": map[string]any{"dtype": "F16", "shape": []int{rows, dims}, "data_offsets": []int{0, out.Len()}}})
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	dir := t.TempDir()
	f := make([]byte, 8, 8+len(h)+out.Len())
	binary.LittleEndian.PutUint64(f, uint64(len(h)))
	f = append(append(f, h...), out.Bytes()...)
	if err := os.WriteFile(filepath.Join(dir, "model.safetensors"), f, 0o644); err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	cb, err := os.ReadFile(filepath.Join(src, "config.json"))
	if err != nil || json.Unmarshal(cb, &cfg) != nil {
		t.Fatalf("config: %v", err)
	}
	cfg["hidden_dim"] = dims
	cb, _ = json.Marshal(cfg)
	tok, err := os.ReadFile(filepath.Join(src, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	if os.WriteFile(filepath.Join(dir, "config.json"), cb, 0o644) != nil || os.WriteFile(filepath.Join(dir, "tokenizer.json"), tok, 0o644) != nil {
		t.Fatal("write model")
	}
	return dir
}

// The fusion calibration adapts to the model: on the same notes, GloVe
// cut to 25 of its 100 dimensions finds its pseudo-queries' chunks less
// often than GloVe and gets a lower vector weight; the calibration is
// stored and read back; a BM25-only rebuild drops it.
func TestCalibrateFusionAdapts(t *testing.T) {
	ctx := context.Background()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	glove := testkit.Shared(t, "models/glove-120k")
	notes := filepath.Join(shared, "corpora/large/PowerShell-Docs/reference/7.4/Microsoft.PowerShell.Management")
	db := filepath.Join(t.TempDir(), "index.db")
	calibrated := map[string]retrieve.Fusion{}
	for name, model := range map[string]string{"glove": glove, "glove-d25": cutModel(t, glove, 25)} {
		if _, err := index.Run(ctx, index.Options{Vault: notes, DB: db, Full: true, ModelDir: model, Rules: vault.Rules{MaxFileBytes: 5 << 20}}); err != nil {
			t.Fatalf("index with %s: %v", name, err)
		}
		f, ok, err := CalibrateIndex(ctx, db, "", [3]float64{}, 0)
		if err != nil || !ok {
			t.Fatalf("%s: calibrate: ok %t, %v", name, ok, err)
		}
		t.Logf("%s: %s", name, f)
		if !f.Valid() || f.Queries < retrieve.MinPseudoQueries || f.BackgroundCosine <= 0 || f.BackgroundCosine >= 1 || f.BM25MRR <= 0 || f.VecMRR <= 0 {
			t.Errorf("%s: implausible calibration %+v", name, f)
		}
		if got, ok := storedFusion(t, db); !ok || got != f {
			t.Errorf("%s: stored calibration %+v (ok %t), want %+v", name, got, ok, f)
		}
		calibrated[name] = f
	}
	if g, w := calibrated["glove"], calibrated["glove-d25"]; !(w.VecMRR < g.VecMRR && w.VectorWeight < g.VectorWeight) {
		t.Errorf("the weaker model is not weighted lower: glove %+v, glove-d25 %+v", g, w)
	}

	if _, err := index.Run(ctx, index.Options{Vault: notes, DB: db, Full: true, NoModel: true, Rules: vault.Rules{MaxFileBytes: 5 << 20}}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := CalibrateIndex(ctx, db, "", [3]float64{}, 0); ok || err != nil {
		t.Errorf("BM25-only index: calibrated %t, %v; want neither", ok, err)
	}
	if f, ok := storedFusion(t, db); ok {
		t.Errorf("BM25-only index still holds a calibration: %+v", f)
	}
}

// storedFusion reads the calibration the index at db holds, closing it
// again.
func storedFusion(t *testing.T, db string) (retrieve.Fusion, bool) {
	t.Helper()
	e, err := Open(context.Background(), db, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	return e.Fusion(context.Background())
}
