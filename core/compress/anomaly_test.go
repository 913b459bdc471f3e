package compress

import "testing"

// TestTemplateHash: lines that differ only in numbers, names, paths and
// ids share a template; lines that differ in a word do not.
func TestTemplateHash(t *testing.T) {
	same := [][2]string{
		{"GET /api/users/17 status=200 dur=<dur>", "GET /api/orders/5 status=503 dur=<dur>"},
		{"worker 3 processed job-17 in 12 steps", "worker 12 processed job-9 in 4 steps"},
		{"req-7f3a9c1e done", "req-00aa11bb done"},
		{"at main.go:12", "at server.go:4"},
		{"  x", "x"},
		{"Downloading a.whl (643 kB)", "Downloading b.whl (9.0 MB)"},
	}
	for _, p := range same {
		if templateHash(p[0]) != templateHash(p[1]) {
			t.Errorf("%q and %q have different templates", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"GET /x status=200", "POST /x status=200"},
		{"level=info msg=ok", "level=error msg=ok"},
		{"a b", "a b c"},
		{"done.", "done"},
	}
	for _, p := range differ {
		if templateHash(p[0]) == templateHash(p[1]) {
			t.Errorf("%q and %q share a template", p[0], p[1])
		}
	}
}
