package chunk_test

import (
	"fmt"

	"github.com/vaultctx/vaultctx/core/internal/chunk"
)

func ExampleSplit() {
	body := `# Espresso

How I pull a shot at home, with the grinder settings that work.

## Dose and grind

18 g in, 36 g out, in 28 to 32 seconds. Grind finer if it runs fast.

` + "```" + `
## not a heading: this is inside a code fence
` + "```" + `

Setext headings count too
-------------------------

Milk is steamed to 60 °C, never more than that.

## See also

- [[Grinder]]
`
	for _, c := range chunk.Split("espresso", body, chunk.DefaultOptions()) {
		fmt.Printf("%d %q\n", c.Ordinal, c.Section)
	}
	// Output:
	// 0 "Espresso"
	// 1 "Dose and grind"
	// 2 "Setext headings count too"
}

func ExampleSplit_long() {
	opt := chunk.Options{MaxChars: 60, MinChars: 10}
	body := "## Notes\n\n" +
		"Two short paragraphs\n\n" +
		"share one chunk.\n\n" +
		"A paragraph longer than sixty characters is cut at white space into even pieces.\n"
	for _, c := range chunk.Split("t", body, opt) {
		fmt.Printf("%s: %q\n", c.Section, c.Text)
	}
	// Output:
	// Notes: "Two short paragraphs\n\nshare one chunk."
	// Notes: "A paragraph longer than sixty characters"
	// Notes: "is cut at white space into even pieces."
}
