package recall

import (
	"slices"
	"testing"
)

func TestQueryIdentifiers(t *testing.T) {
	for q, want := range map[string][]string{
		"Get-ChildItem -Recurse":                               {"get-childitem"},
		"how do I use wcstombs_s safely":                       {"wcstombs_s"},
		"LINK : fatal error LNK1104: cannot open file 'x.lib'": {"link", "lnk1104"},
		"commit and push":                                      nil,
		"(CWnd::Create) and `os.path.join`":                    {"cwnd::create"}, // os.path.join ends like a file name
		"write a CONTRIBUTING.md and fix main.go for v2 on s3": nil,
	} {
		if got := QueryIdentifiers(q); !slices.Equal(got, want) {
			t.Errorf("QueryIdentifiers(%q) = %q, want %q", q, got, want)
		}
	}
}
