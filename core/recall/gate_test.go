package recall

import "testing"

func TestIsSlashCommand(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"/model", true}, {"  /clear", true}, {"/compact keep the plan", true}, {"/mcp:tool arg", true},
		{"/usr/bin is slow", false}, {"/ 3", false}, {"/", false}, {"how do /model work", false}, {"", false},
		{"/1abc", false},
	} {
		if got := IsSlashCommand(c.in); got != c.want {
			t.Errorf("IsSlashCommand(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
