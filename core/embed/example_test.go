package embed_test

import (
	"fmt"

	"github.com/vaultctx/vaultctx/core/embed"
)

func dot(a, b []float32) (s float32) {
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Static embeddings put a query near text about the same concept even when
// they share no word.
func ExampleModel_Encode() {
	m, err := embed.OpenOptions("../../../shared/models/glove-120k", embed.Options{CacheDir: "-"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	q, _ := m.Encode("how to handle authentication failures")
	near, _ := m.Encode("login error recovery")
	far, _ := m.Encode("chocolate cake recipe")
	fmt.Println(m.Dim(), dot(q, near) > dot(q, far))
	// Output: 100 true
}
