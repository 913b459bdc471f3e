package vault_test

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/vaultctx/vaultctx/core/vault"
)

// Walk the shared edge corpus: every note comes back in path order, the
// empty one included; SOURCES.tsv is not a note.
func ExampleWalk() {
	root := filepath.Join("..", "..", "..", "shared", "corpora", "edge")
	var n int
	var empty []string
	skips, err := vault.Walk(context.Background(), root, vault.Rules{}, func(f vault.File) error {
		n++
		if f.Size == 0 {
			empty = append(empty, f.Path)
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n, "notes,", len(skips), "skipped")
	fmt.Println("empty:", empty)
	// Output:
	// 19 notes, 0 skipped
	// empty: [26_empty_file__.should-not-be-picked-up.md]
}

// Rules match whole path components from the vault root.
func ExampleRules_Match() {
	r := vault.Rules{Exclude: []string{"Archive/**", "**/_templates"}}
	for _, p := range []string{
		"Archive/2020/a.md",
		"ArchiveOld/b.md",
		"Projects/_templates/t.md",
		"Projects/plan.MD",
		".obsidian/app.md",
		"Projects/diagram.png",
	} {
		fmt.Println(r.Match(p), p)
	}
	// Output:
	// false Archive/2020/a.md
	// true ArchiveOld/b.md
	// false Projects/_templates/t.md
	// true Projects/plan.MD
	// false .obsidian/app.md
	// false Projects/diagram.png
}
