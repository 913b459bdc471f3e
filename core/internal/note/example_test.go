package note_test

import (
	"fmt"

	"github.com/vaultctx/vaultctx/core/internal/note"
)

func ExampleParse() {
	raw := []byte("---\r\ntitle: Trip planning\r\ntype: project\r\ntags: [travel, \"#europe/italy\"]\r\n---\r\n# Rome\r\nBook the #train early.\r\n")
	n := note.Parse("Projects/trip.md", raw)
	fmt.Println(n.Title)
	fmt.Println(n.Tags)
	fmt.Printf("%q\n", n.Body)
	fmt.Println(n.HeadingContext())
	// Output:
	// Trip planning
	// [travel europe/italy train]
	// "# Rome\nBook the #train early.\n"
	// Trip planning | project | travel, europe/italy, train
}

func ExampleParse_brokenFrontmatter() {
	raw := []byte("---\nDear reader,\nthis is a letter.\n---\n\nThe rest.\n")
	n := note.Parse("Letters/hello.md", raw)
	fmt.Println(n.Title)
	fmt.Printf("%q\n", n.Body)
	fmt.Println(n.Problems)
	// Output:
	// hello
	// "Dear reader,\nthis is a letter.\n\nThe rest.\n"
	// [frontmatter is not YAML key/value data (a letterhead?); read as body text]
}

func ExampleDecode() {
	text, problems := note.Decode([]byte("\xEF\xBB\xBFcaf\xE9\r\nCafe\u0301\r\n"))
	fmt.Printf("%q %q\n", text, problems)
	// Output:
	// "café\nCafé\n" ["invalid UTF-8: 1 bytes decoded as Windows-1252"]
}
