package vault

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestMatch(t *testing.T) {
	nfd := norm.NFD.String
	tests := []struct {
		name  string
		rules Rules
		yes   []string
		no    []string
	}{
		{
			name:  "defaults",
			rules: Rules{},
			yes:   []string{"a.md", "A.MD", "dir/sub/note.Md", "./a.md", "/a.md", "26_empty_file__.should-not-be-picked-up.md"},
			no: []string{"a.txt", "a.md.bak", "md", ".md", "", ".hidden.md", ".obsidian/workspace.md",
				".trash/old.md", ".git/x.md", "dir/.cache/y.md", "a/.b/c/d.md"},
		},
		{
			name:  "exclude Archive",
			rules: Rules{Exclude: []string{"Archive"}},
			yes:   []string{"ArchiveOld/b.md", "Notes/Archive/c.md", "archive/d.md", "Archive.md"},
			no:    []string{"Archive/a.md", "Archive/2020/b.md"},
		},
		{
			name:  "exclude Archive/",
			rules: Rules{Exclude: []string{"Archive/"}},
			yes:   []string{"ArchiveOld/b.md", "Notes/Archive/c.md"},
			no:    []string{"Archive/a.md", "Archive/2020/b.md"},
		},
		{
			name:  "exclude Archive/**",
			rules: Rules{Exclude: []string{"Archive/**"}},
			yes:   []string{"ArchiveOld/b.md", "Notes/Archive/c.md"},
			no:    []string{"Archive/a.md", "Archive/2020/b.md"},
		},
		{
			name:  "exclude /Archive and ./Archive//",
			rules: Rules{Exclude: []string{"/Archive", "./Archive//"}},
			yes:   []string{"ArchiveOld/b.md"},
			no:    []string{"Archive/a.md"},
		},
		{
			name:  "nested exclude",
			rules: Rules{Exclude: []string{"Projects/Old"}},
			yes:   []string{"Projects/a.md", "Projects/Older/b.md", "Old/c.md", "x/Projects/Old/d.md"},
			no:    []string{"Projects/Old/e.md", "Projects/Old/deep/f.md"},
		},
		{
			name:  "include allowlist",
			rules: Rules{Include: []string{"Projects", "Areas/Health"}},
			yes:   []string{"Projects/a.md", "Projects/x/y.md", "Areas/Health/run.md"},
			no:    []string{"a.md", "Notes/a.md", "ProjectsOld/a.md", "Areas/Money/b.md", "Areas/c.md"},
		},
		{
			name:  "exclude wins over include",
			rules: Rules{Include: []string{"Projects"}, Exclude: []string{"Projects/Old"}},
			yes:   []string{"Projects/a.md", "Projects/Older/a.md"},
			no:    []string{"Projects/Old/a.md", "Other/a.md"},
		},
		{
			name:  "double star at any depth",
			rules: Rules{Exclude: []string{"**/_templates"}},
			yes:   []string{"a/_templates2/x.md", "templates/x.md"},
			no:    []string{"_templates/t.md", "a/b/_templates/t.md", "a/_templates/sub/t.md"},
		},
		{
			name:  "double star in the middle",
			rules: Rules{Exclude: []string{"Journal/**/private"}},
			yes:   []string{"Journal/public/a.md", "private/a.md"},
			no:    []string{"Journal/private/a.md", "Journal/2024/05/private/b.md"},
		},
		{
			// Backtracking over several "**" is exponential; this case
			// would not finish.
			name:  "many double stars",
			rules: Rules{Exclude: []string{strings.Repeat("**/a/", 12) + "b"}},
			yes:   []string{strings.Repeat("a/", 40) + "c.md"},
			no:    []string{strings.Repeat("a/", 13) + "b/c.md"},
		},
		{
			name:  "component patterns",
			rules: Rules{Exclude: []string{"20*", "Draft?"}},
			yes:   []string{"x/2019/y.md", "Draft10/a.md", "1999/a.md"},
			no:    []string{"2019/x.md", "2024-05/y.md", "Draft1/a.md"},
		},
		{
			name:  "include spells out a dot-folder",
			rules: Rules{Include: []string{".notes", "Public"}},
			yes:   []string{".notes/a.md", ".notes/sub/b.md", "Public/c.md"},
			no:    []string{".notes/.sub/a.md", ".other/a.md", "a.md", "Public/.hidden/d.md"},
		},
		{
			name:  "whole vault plus one dot-folder",
			rules: Rules{Include: []string{"*", ".notes"}},
			yes:   []string{"a.md", "x/y/z.md", ".notes/n.md"},
			no:    []string{".other/o.md", ".hidden.md"},
		},
		{
			name:  "a pattern never unhides",
			rules: Rules{Include: []string{".n*"}},
			no:    []string{".notes/a.md", "notes/a.md"},
		},
		{
			name:  "extensions with and without dot, any case",
			rules: Rules{Extensions: []string{"markdown", ".MD", " txt "}},
			yes:   []string{"a.markdown", "a.md", "b.TXT"},
			no:    []string{"a.mdx", "a.org", "markdown"},
		},
		{
			name:  "multi-dot extension",
			rules: Rules{Extensions: []string{"excalidraw.md"}},
			yes:   []string{"drawing.excalidraw.md"},
			no:    []string{"note.md", "excalidraw.md"},
		},
		{
			name:  "NFD path matches NFC rule",
			rules: Rules{Exclude: []string{"Café"}},
			yes:   []string{"Cafe/a.md"},
			no:    []string{nfd("Café/a.md"), "Café/b.md"},
		},
		{
			name:  "NFD rule matches NFC path",
			rules: Rules{Include: []string{nfd("Notizen/Bücher")}},
			yes:   []string{"Notizen/Bücher/a.md", nfd("Notizen/Bücher/b.md")},
			no:    []string{"Notizen/a.md"},
		},
		{
			name:  "all include rules invalid match nothing",
			rules: Rules{Include: []string{"../outside"}},
			no:    []string{"a.md", "outside/a.md"},
		},
		{
			name:  "invalid exclude rule is ignored",
			rules: Rules{Exclude: []string{"a/["}},
			yes:   []string{"a/x.md"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range tt.yes {
				if !tt.rules.Match(p) {
					t.Errorf("Match(%q) = false, want true", p)
				}
			}
			for _, p := range tt.no {
				if tt.rules.Match(p) {
					t.Errorf("Match(%q) = true, want false", p)
				}
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		rules   Rules
		wantErr string // substring; "" means valid
	}{
		{name: "zero value", rules: Rules{}},
		{name: "typical", rules: Rules{Include: []string{"Notes", "Projects/Active"}, Exclude: []string{"Archive/**", "**/_templates"}, Extensions: []string{"md", ".markdown"}}},
		{name: "empty include rule", rules: Rules{Include: []string{""}}, wantErr: `include[0] "": names no folder`},
		{name: "slash only", rules: Rules{Exclude: []string{"Notes", "/"}}, wantErr: `exclude[1] "/": names no folder`},
		{name: "double star only", rules: Rules{Exclude: []string{"**"}}, wantErr: `exclude[0] "**": names no folder`},
		{name: "dot dot", rules: Rules{Exclude: []string{"a/../../b"}}, wantErr: `exclude[0] "a/../../b": ".." leaves the vault`},
		{name: "bad pattern", rules: Rules{Include: []string{"a/[b"}}, wantErr: `include[0] "a/[b": pattern "[b"`},
		{name: "empty extension", rules: Rules{Extensions: []string{"md", "."}}, wantErr: `extensions[1] ".": empty extension`},
		{name: "extension with slash", rules: Rules{Extensions: []string{"a/md"}}, wantErr: `extensions[0] "a/md": an extension cannot hold a path separator`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.rules.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate() = nil, want error containing %q", tt.wantErr)
			}
			if !errors.Is(err, ErrBadRule) {
				t.Errorf("Validate() = %v, does not wrap ErrBadRule", err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Validate() = %q, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestNormalizeExtension(t *testing.T) {
	tests := []struct{ in, want string }{
		{"md", ".md"},
		{".md", ".md"},
		{".MD", ".md"},
		{"  Markdown ", ".markdown"},
		{"excalidraw.md", ".excalidraw.md"},
	}
	for _, tt := range tests {
		got, err := NormalizeExtension(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("NormalizeExtension(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// FuzzMatch checks invariants of rule matching on arbitrary rules and paths:
// no panics; "X", "X/" and "X/**" mean the same; an exclude rule only ever
// narrows the default set; an include rule narrows it too unless it spells
// out a dot-folder; and NFD input matches like its NFC form.
func FuzzMatch(f *testing.F) {
	f.Add("Archive", "Archive/a.md")
	f.Add("Archive", "ArchiveOld/b.md")
	f.Add("**/_t", "a/_t/b.md")
	f.Add("Projects/Old", "Projects/Old/x.md")
	f.Add("2*", "2019/x.md")
	f.Add(".notes", ".notes/a.md")
	f.Add("[", "a.md")
	f.Fuzz(func(t *testing.T, rule, p string) {
		spellings := []string{rule, rule + "/", rule + "/**"}
		var ex, in []bool
		for _, s := range spellings {
			ex = append(ex, Rules{Exclude: []string{s}}.Match(p))
			in = append(in, Rules{Include: []string{s}}.Match(p))
		}
		if strings.HasSuffix(rule, "\\") {
			// "a\" + "/" is an escaped slash to path.Match, not a
			// separator: spellings differ by design.
			return
		}
		for i := range spellings {
			if ex[i] != ex[0] || in[i] != in[0] {
				t.Errorf("rule spellings %q disagree on %q: exclude %v include %v", spellings, p, ex, in)
			}
		}
		base := Rules{}.Match(p)
		if ex[0] && !base {
			t.Errorf("exclude %q widened the set: %q", rule, p)
		}
		if in[0] && !base && !strings.Contains("/"+p, "/.") {
			t.Errorf("include %q widened the set: %q", rule, p)
		}
		if got := (Rules{Exclude: []string{rule}}).Match(norm.NFD.String(p)); got != ex[0] {
			t.Errorf("NFD form of %q matches %v, NFC form %v", p, got, ex[0])
		}
	})
}

// TestMatchDir: the folders Walk enters. A note that Match accepts always
// lies in a folder MatchDir accepts.
func TestMatchDir(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		yes   []string
		no    []string
	}{
		{"defaults", Rules{}, []string{"", ".", "a", "a/b", "./a/"}, []string{".obsidian", ".trash/x", "a/.git", "a/.b/c"}},
		{"exclude", Rules{Exclude: []string{"Archive", "**/_templates"}}, []string{"ArchiveOld", "Notes/Archive"},
			[]string{"Archive", "Archive/2020", "x/_templates", "_templates"}},
		{"include", Rules{Include: []string{"Projects", "Areas/Health"}}, []string{"", "Projects", "Projects/x", "Areas", "Areas/Health/y"},
			[]string{"Notes", "ProjectsOld", "Areas/Money"}},
		{"include a dot-folder", Rules{Include: []string{"*", ".notes"}}, []string{".notes", "a", ".notes/x"}, []string{".obsidian", "a/.b"}},
		{"exclude wins", Rules{Include: []string{"Projects"}, Exclude: []string{"Projects/Old"}}, []string{"Projects"}, []string{"Projects/Old", "Projects/Old/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range tt.yes {
				if !tt.rules.MatchDir(d) {
					t.Errorf("MatchDir(%q) = false, want true", d)
				}
				if f := strings.TrimSuffix(d, "/") + "/n.md"; tt.rules.Match(f) && !tt.rules.MatchDir(d) {
					t.Errorf("Match(%q) but not MatchDir(%q)", f, d)
				}
			}
			for _, d := range tt.no {
				if tt.rules.MatchDir(d) {
					t.Errorf("MatchDir(%q) = true, want false", d)
				}
				if f := d + "/n.md"; tt.rules.Match(f) {
					t.Errorf("Match(%q) in a folder MatchDir refuses", f)
				}
			}
		})
	}
}
