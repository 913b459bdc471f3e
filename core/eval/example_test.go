package eval_test

import (
	"fmt"

	"github.com/vaultctx/vaultctx/core/eval"
)

// A ranking that finds two of three relevant documents, at ranks 1 and 3.
func ExampleNDCG() {
	ranked := []string{"d1", "x", "d2"}
	grades := eval.Grades{"d1": 1, "d2": 1, "d3": 1}
	fmt.Printf("nDCG@10   %.4f\n", eval.NDCG(ranked, grades, 10))
	fmt.Printf("recall@10 %.4f\n", eval.Recall(ranked, grades, 10))
	fmt.Printf("RR@10     %.4f\n", eval.ReciprocalRank(ranked, grades, 10))
	// Output:
	// nDCG@10   0.7039
	// recall@10 0.6667
	// RR@10     1.0000
}
