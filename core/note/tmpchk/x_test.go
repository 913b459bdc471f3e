package tmpchk
import ("fmt";"os";"path/filepath";"testing";"github.com/vaultctx/vaultctx/core/note")
func TestX(t *testing.T){
 fs,_ := filepath.Glob("/work/shared/corpora/edge/*.md")
 for _, f := range fs {
  b,_ := os.ReadFile(f)
  n := note.Parse(filepath.Base(f), b)
  fmt.Printf("%s\n  title=%q type=%q tags=%q aliases=%q problems=%q\n  body=%.80q\n  ctx=%q\n", filepath.Base(f), n.Title, n.Type, n.Tags, n.Aliases, n.Problems, n.Body, n.HeadingContext())
 }
}
