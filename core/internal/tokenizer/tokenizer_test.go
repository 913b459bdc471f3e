package tokenizer

import (
	"slices"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

type refRow struct {
	ID   string  `json:"id"`
	Text string  `json:"text"`
	IDs  []int32 `json:"ids"`
}

func readRefs(tb testing.TB, name string) []refRow {
	tb.Helper()
	return testkit.JSONLines[refRow](tb, testkit.Shared(tb, "models/reference", name))
}

// model2vecIDs applies model2vec's steps around the tokenizer: truncate to
// 512*median code points, drop unk, keep 512 ids.
func model2vecIDs(t *Tokenizer, text string) []int32 {
	limit := 512 * t.MedianTokenLength()
	n := 0
	for i := range text {
		if n == limit {
			text = text[:i]
			break
		}
		n++
	}
	ids := t.Encode(text)
	out := ids[:0]
	for _, id := range ids {
		if int(id) != t.UnkID() {
			out = append(out, id)
		}
	}
	if len(out) > 512 {
		out = out[:512]
	}
	return out
}

func TestReferenceIDs(t *testing.T) {
	tests := []struct {
		name, tokenizer, refs string
	}{
		{"glove-120k", "models/glove-120k/tokenizer.json", "glove-120k.jsonl"},
		{"float32", "models/m2v-fixtures/float32/tokenizer.json", "m2v-fixtures-float32.jsonl"},
		{"vocab-quantized", "models/m2v-fixtures/vocab-quantized/tokenizer.json", "m2v-fixtures-vocab-quantized.jsonl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, cached := range []bool{false, true} {
				dir := ""
				if cached {
					dir = t.TempDir()
					if _, err := Load(testkit.Shared(t, tc.tokenizer), dir); err != nil {
						t.Fatal(err)
					}
				}
				tok, err := Load(testkit.Shared(t, tc.tokenizer), dir)
				if err != nil {
					t.Fatal(err)
				}
				bad := 0
				for _, r := range readRefs(t, tc.refs) {
					got := model2vecIDs(tok, r.Text)
					if !slices.Equal(got, r.IDs) {
						bad++
						if bad <= 5 {
							t.Errorf("cached=%v %s %q:\n got %v\nwant %v", cached, r.ID, trunc(r.Text), got, r.IDs)
						}
					}
				}
				if bad > 0 {
					t.Errorf("cached=%v: %d texts differ", cached, bad)
				}
				tok.Close()
			}
		})
	}
}

func trunc(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
