package scrub_test

import (
	"fmt"

	"github.com/vaultctx/vaultctx/core/scrub"
)

func ExampleScrubber_Scrub() {
	note := "staging db: postgres://app:Xk9vQ2mLp7Rw@db.internal:5432/app\n" +
		"see https://docs.example.com/guide?page=2 and ticket 3f2a9c1\n" +
		"DB_PASSWORD=${DB_PASSWORD}\n"
	out, findings := scrub.Default().Scrub(note)
	fmt.Print(out)
	for _, f := range findings {
		fmt.Println(f.Rule, f.Start, f.End)
	}
	// Output:
	// staging db: postgres://app:[REDACTED:database-url-password]@db.internal:5432/app
	// see https://docs.example.com/guide?page=2 and ticket 3f2a9c1
	// DB_PASSWORD=${DB_PASSWORD}
	// database-url-password 27 39
}

func ExampleScrubber_Find() {
	fs := scrub.Default().Find("Authorization: Bearer 8fj3KQ0zLm2Xc7Vb1Np4Rt6Yw9Ds5Ga")
	fmt.Printf("%+v\n", fs)
	// Output:
	// [{Rule:bearer-token Start:22 End:53}]
}
