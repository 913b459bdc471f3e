package embed

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzReadSafetensors(f *testing.F) {
	for _, name := range []string{"m2v-fixtures/vocab-quantized", "m2v-fixtures/int8"} {
		data, err := os.ReadFile(filepath.Join(modelPath(f, name), "model.safetensors"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 600)])
	}
	f.Add([]byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":{\"dtype\":1}}"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "model.safetensors")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		ts, base, err := readSafetensors(p)
		if err != nil {
			return
		}
		for name, tn := range ts {
			end := tn.start + tn.elems()*int64(dtypeSize(tn.DType))
			if tn.start < base || end > int64(len(b)) {
				t.Fatalf("tensor %q [%d,%d) outside a %d-byte file", name, tn.start, end, len(b))
			}
		}
	})
}
