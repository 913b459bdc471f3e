package recall

import (
	"context"
	"os"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/hookio"
)

// BenchmarkPrompt runs the UserPromptSubmit answer in process on a real
// index (set VAULTCTX_BENCH_DB to a file built with a model), engine open
// included, as one hook process does; the session is new every time.
func BenchmarkPrompt(b *testing.B) {
	db := os.Getenv("VAULTCTX_BENCH_DB")
	if db == "" {
		b.Skip("VAULTCTX_BENCH_DB is not set")
	}
	cfg, err := config.Load("", func(k string) string {
		if k == "VAULTCTX_DB" {
			return db
		}
		return ""
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("XDG_STATE_HOME", b.TempDir())
	prompts := []string{
		"how do I report failures with exceptions and return error codes in modern C++",
		"linker error LNK2019 unresolved external symbol",
		"how to handle authentication failures",
		"run a PowerShell script on a remote machine without WinRM",
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := hookio.Input{SessionID: "", Prompt: prompts[i%len(prompts)]}
		if _, err := Prompt(context.Background(), cfg, in, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
