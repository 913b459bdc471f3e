package config_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/vaultctx/vaultctx/core/config"
)

// A typical config file: the vault, a folder denylist, and two ranking
// tweaks. Everything not in the file keeps its default.
func ExampleParse() {
	const file = `
vault = "~/Notes"
exclude = ["Archive", "**/_templates"]
extensions = ["md", "markdown"]

[search]
k = 5
bm25_columns = [1.0, 0.8, 0.3]  # weigh section headings more

[hooks]
deadline_ms = 800
`
	c, err := config.Parse(strings.NewReader(file))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("vault:", c.Vault) // Load expands "~/"; Parse keeps it
	fmt.Println("exclude:", c.Exclude)
	fmt.Println("extensions:", c.Extensions)
	fmt.Println("k:", c.Search.K, "candidates:", c.Search.Candidates)
	fmt.Println("columns:", c.Search.Columns)
	fmt.Println("deadline:", c.Hooks.DeadlineMS, "ms; prompt budget:", c.Hooks.PromptBudgetTokens, "tokens")
	fmt.Println("notes:", c.Rules().Match("Projects/plan.md"), c.Rules().Match("Archive/old.md"), c.Rules().Match(".obsidian/app.md"))
	// Output:
	// vault: ~/Notes
	// exclude: [Archive **/_templates]
	// extensions: [.md .markdown]
	// k: 5 candidates: 30
	// columns: [1 0.8 0.3]
	// deadline: 800 ms; prompt budget: 500 tokens
	// notes: true false false
}

// A misspelt key is an error that names it.
func ExampleParse_unknownKey() {
	_, err := config.Parse(strings.NewReader("exlude = [\"Archive\"]\n"))
	fmt.Println(err)
	fmt.Println(errors.Is(err, config.ErrUnknownKey))
	// Output:
	// config: unknown key "exlude" (did you mean "exclude"?)
	// true
}

// Where vaultctx looks for its files, with a fake environment.
func ExampleDefaultPath() {
	getenv := func(k string) string {
		return map[string]string{"HOME": "/home/ada", "XDG_DATA_HOME": "/data"}[k]
	}
	fmt.Println(config.DefaultPath(getenv))
	fmt.Println(config.DefaultDB(getenv))
	// Output:
	// /home/ada/.config/vaultctx/config.toml
	// /data/vaultctx/index.db
}

// Load the documented sample, testdata/full.toml, which sets every key:
// "~/" is expanded, relative paths are taken from the file's folder, and the
// environment overrides the file.
func ExampleLoad() {
	getenv := func(k string) string {
		return map[string]string{"HOME": "/home/ada", "VAULTCTX_MODEL": "/opt/models/glove"}[k]
	}
	c, err := config.Load("testdata/full.toml", getenv)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("vault:", c.Vault)
	fmt.Println("db:", filepath.Base(filepath.Dir(c.DB))+"/"+filepath.Base(c.DB))
	fmt.Println("model:", c.Model)
	fmt.Println("include:", c.Include, "exclude:", c.Exclude)
	fmt.Println("extensions:", c.Extensions, "max bytes:", c.MaxFileBytes)
	fmt.Printf("search: %+v\n", c.Search)
	h := c.Hooks
	fmt.Println("hooks:", h.DeadlineMS, "ms,", h.PromptBudgetTokens, h.PreToolBudgetTokens, "tokens,",
		h.OutputThresholdBytes, "bytes,", h.OutputBudgetTokens, "tokens, min_score", h.MinScore)
	for _, name := range config.HookNames() {
		fmt.Printf("%s on: %v\n", name, h.Enabled(name))
	}
	fmt.Printf("output_passthrough: %q\n", h.OutputPassthrough)
	// Output:
	// vault: /home/ada/Notes
	// db: testdata/index.db
	// model: /opt/models/glove
	// include: [Projects Areas/Health] exclude: [Projects/Old **/_templates]
	// extensions: [.md] max bytes: 5242880
	// search: {K:10 Candidates:30 RRFK:60 BM25Weight:1 VectorWeight:0.2 Columns:[1 0.5 0.3] MinCosine:0.7 BM25Lead:1 VectorWeightSet:true MinCosineSet:true}
	// hooks: 1500 ms, 500 300 tokens, 4096 bytes, 2000 tokens, min_score 0
	// userprompt on: true
	// pretooluse on: true
	// posttooluse on: true
	// output_passthrough: ["terraform plan" "git diff"]
}
