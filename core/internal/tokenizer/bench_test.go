package tokenizer

import (
	"strings"
	"testing"
)

// BenchmarkEncode tokenizes about 1,000 bytes of reference text (the size of
// an indexed chunk) per operation.
func BenchmarkEncode(b *testing.B) {
	var sb strings.Builder
	for _, r := range readRefs(b, "glove-120k.jsonl") {
		if sb.Len() > 1000 {
			break
		}
		sb.WriteString(r.Text)
		sb.WriteByte('\n')
	}
	text := sb.String()
	for _, tc := range []struct{ name, path string }{
		{"WordPiece", "models/m2v-fixtures/float32/tokenizer.json"},
		{"Unigram", "models/m2v-fixtures/vocab-quantized/tokenizer.json"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tok := mustFromJSON(b, tc.path)
			var ids []int32
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				ids = tok.AppendEncode(ids[:0], text)
			}
		})
	}
}
