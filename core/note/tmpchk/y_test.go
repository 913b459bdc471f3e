package tmpchk
import ("fmt";"os";"path/filepath";"testing";"io/fs";"strings";"github.com/vaultctx/vaultctx/core/note";"github.com/vaultctx/vaultctx/core/chunk")
func TestY(t *testing.T){
 b,_ := os.ReadFile("/work/shared/corpora/edge/07_invalid_yaml_frontmatter__Set-DnsServerEncryptionProtocol.md")
 n := note.Parse("x", b); fmt.Println(n.Body[:600])
 probs := map[string]int{}
 nf, nc := 0, 0
 for _, root := range []string{"/work/shared/corpora/obsidian", "/work/shared/corpora/large"} {
 filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
  if d.IsDir() || !strings.HasSuffix(p, ".md") { return nil }
  b, _ := os.ReadFile(p)
  n := note.Parse(p, b)
  nf++
  nc += len(chunk.Split(n.Title, n.Body, chunk.DefaultOptions()))
  for _, pr := range n.Problems { k := pr; if len(k) > 50 { k = k[:50] }; probs[k]++ ; if probs[k] < 3 { fmt.Println(p, pr) } }
  if strings.Contains(root, "obsidian") && (len(n.Tags) > 0 || n.Type != "" || len(n.Aliases) > 0) && nf%5 == 0 { fmt.Printf("%s: %q\n", p[30:], n.HeadingContext()) }
  return nil })
 }
 fmt.Println(nf, nc, probs)
}
