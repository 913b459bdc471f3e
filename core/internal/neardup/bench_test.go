package neardup

import (
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// BenchmarkGroupTop30 groups 30 real chunk texts in the order a search
// returns them: the SYNTAX and PARAMETERS chunks of Get-ChildItem from
// the five PowerShell doc versions (many duplicates) and others.
func BenchmarkGroupTop30(b *testing.B) {
	cs := loadCorpus(b, testkit.Shared(b, "corpora/large/PowerShell-Docs/reference/7.5/Microsoft.PowerShell.Management"))
	texts := make([]string, 0, 30)
	for i := 0; len(texts) < 30 && i < len(cs); i += 7 {
		texts = append(texts, cs[i].text)
	}
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var g Groups
		for _, t := range texts {
			g.Add(t)
		}
	}
}

func benchTexts(b *testing.B) []string {
	cs := loadCorpus(b, testkit.Shared(b, "corpora/large/PowerShell-Docs/reference/7.5/Microsoft.PowerShell.Management"))
	texts := make([]string, 0, 30)
	for i := 0; len(texts) < 30 && i < len(cs); i += 7 {
		texts = append(texts, cs[i].text)
	}
	return texts
}

func BenchmarkOf30(b *testing.B) {
	texts := benchTexts(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range texts {
			Of(t)
		}
	}
}

func BenchmarkNear435(b *testing.B) {
	texts := benchTexts(b)
	sigs := make([]Sig, len(texts))
	for i, t := range texts {
		sigs[i] = Of(t)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for x := range sigs {
			for y := x + 1; y < len(sigs); y++ {
				Near(sigs[x], sigs[y])
			}
		}
	}
}
