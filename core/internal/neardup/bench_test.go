package neardup

import (
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// benchTexts returns 30 real chunk texts of PowerShell 7.5's Management
// pages (every 7th chunk: SYNTAX, PARAMETERS, EXAMPLES ..., 540 bytes on
// average), about what one result list holds.
func benchTexts(b *testing.B) []string {
	b.Helper()
	cs := loadCorpus(b, testkit.Shared(b, "corpora/large/PowerShell-Docs/reference/7.5/Microsoft.PowerShell.Management"))
	texts := make([]string, 0, 30)
	for i := 0; len(texts) < 30 && i < len(cs); i += 7 {
		texts = append(texts, cs[i].text)
	}
	return texts
}

// BenchmarkGroupTop30 files 30 texts into Groups, as retrieve and recall
// do for a result list.
func BenchmarkGroupTop30(b *testing.B) {
	texts := benchTexts(b)
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

// BenchmarkOf30 is the shingling part of BenchmarkGroupTop30.
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

// BenchmarkNear435 compares every pair of the 30 texts' Sigs.
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
