package tmpchk
import ("os";"path/filepath";"testing";"io/fs";"strings";"github.com/vaultctx/vaultctx/core/note";"github.com/vaultctx/vaultctx/core/chunk")
func BenchmarkAll(b *testing.B){
 var files [][]byte; var names []string; total := 0
 filepath.WalkDir("/work/shared/corpora/large", func(p string, d fs.DirEntry, err error) error {
  if d.IsDir() || !strings.HasSuffix(p, ".md") || len(files) >= 3000 { return nil }
  x, _ := os.ReadFile(p); files = append(files, x); names = append(names, p); total += len(x); return nil })
 b.SetBytes(int64(total)); b.ResetTimer()
 for i := 0; i < b.N; i++ { for j, f := range files { n := note.Parse(names[j], f); chunk.Split(n.Title, n.Body, chunk.DefaultOptions()) } }
}
