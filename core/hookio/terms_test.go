package hookio

import (
	"reflect"
	"testing"
)

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

func TestSearchableTerms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"yes", nil},
		{"ok go on", nil},
		{"Thanks, please continue!", nil},
		{"Why does the build fail on the linker step?", []string{"build", "fail", "linker", "step"}},
		{"wcstombs_s vs WideCharToMultiByte wcstombs", []string{"wcstombs", "vs", "widechartomultibyte"}},
		{"Ünïcode NFC ünïcode", []string{"ünïcode", "nfc"}},
		{"x y z 42", []string{"42"}},
	} {
		if got := SearchableTerms(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("SearchableTerms(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
