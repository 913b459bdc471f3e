package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/vaultctx/vaultctx/core/vault"
)

// env is a fake getenv over m.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// writeFile writes content to dir/name and returns the path.
func writeFile(tb testing.TB, dir, name, content string) string {
	tb.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestSampleFile checks that testdata/full.toml sets every key Config reads,
// and that every value it shows as the default is the default.
func TestSampleFile(t *testing.T) {
	const sample = "testdata/full.toml"
	var raw map[string]any
	md, err := toml.DecodeFile(sample, &raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range knownKeys() {
		if !md.IsDefined(strings.Split(k, ".")...) {
			t.Errorf("%s does not document key %q", sample, k)
		}
	}

	c, err := Load(sample, env(map[string]string{"HOME": "/home/u"}))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	want := Defaults()
	want.Vault = "/home/u/Notes"
	want.DB = filepath.Join(dir, "index.db")
	want.Model = "/home/u/.local/share/vaultctx/models/minishlab/potion-base-8M"
	want.Include = []string{"Projects", "Areas/Health"}
	want.Exclude = []string{"Projects/Old", "**/_templates"}
	want.File = filepath.Join(dir, "full.toml")
	on := true
	want.Hooks.UserPrompt, want.Hooks.PreToolUse, want.Hooks.PostToolUse = &on, &on, &on
	want.Hooks.OutputPassthrough = []string{"terraform plan", "git diff"}
	want.Search.VectorWeightSet, want.Search.MinCosineSet = true, true
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Load(%s) =\n%+v\nwant\n%+v", sample, c, want)
	}
}

func TestKnownKeys(t *testing.T) {
	keys := knownKeys()
	for _, k := range []string{"vault", "db", "model", "include", "exclude", "extensions", "max_file_bytes",
		"search", "search.k", "search.bm25_columns", "hooks", "hooks.min_score"} {
		if !slices.Contains(keys, k) {
			t.Errorf("knownKeys() lacks %q", k)
		}
	}
	// Each hook name is the key of its switch, and only that switch turns
	// it off.
	off := false
	for _, name := range HookNames() {
		if !slices.Contains(keys, "hooks."+name) {
			t.Errorf("hook %q has no switch hooks.%s", name, name)
		}
		c, err := Parse(strings.NewReader("[hooks]\n" + name + " = false\n"))
		if err != nil {
			t.Fatal(err)
		}
		for _, other := range HookNames() {
			if c.Hooks.Enabled(other) != (other != name) {
				t.Errorf("with %s = false, Enabled(%q) = %v", name, other, c.Hooks.Enabled(other))
			}
		}
	}
	if !(Hooks{UserPrompt: &off, PreToolUse: &off, PostToolUse: &off}).Enabled("sessionstart") {
		t.Error("an unknown hook name is off")
	}
	if slices.Contains(keys, "File") || slices.Contains(keys, "file") {
		t.Errorf("knownKeys() lists the File field: %q", keys)
	}
}

func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "c.toml", "vault = \"/file/vault\"\ndb = \"/file.db\"\nmodel = \"/file/model\"\n[search]\nk = 7\n")
	noDB := writeFile(t, dir, "nodb.toml", "vault = \"/file/vault\"\n")
	home := map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": dir + "/nothing-here"}
	with := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range home {
			out[k] = v
		}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name             string
		path             string
		env              map[string]string
		vault, db, model string
		k                int
		file             string
	}{
		{"defaults", "", home, "", "/h/.local/share/vaultctx/index.db", "", 10, ""},
		{"file over defaults", file, home, "/file/vault", "/file.db", "/file/model", 7, file},
		{"env over file", file, with(map[string]string{EnvVault: "/env/vault", EnvDB: "/env.db", EnvModel: "/env/model"}),
			"/env/vault", "/env.db", "/env/model", 7, file},
		{"env over defaults", "", with(map[string]string{EnvVault: "/env/vault", EnvDB: "/env.db"}),
			"/env/vault", "/env.db", "", 10, ""},
		{"env config file", "", with(map[string]string{EnvConfig: file}), "/file/vault", "/file.db", "/file/model", 7, file},
		{"argument over env config file", noDB, with(map[string]string{EnvConfig: file}), "/file/vault", "/h/.local/share/vaultctx/index.db", "", 10, noDB},
		{"file without db uses XDG_DATA_HOME", noDB, with(map[string]string{"XDG_DATA_HOME": "/data"}), "/file/vault", "/data/vaultctx/index.db", "", 10, noDB},
		{"empty env does not override", file, with(map[string]string{EnvVault: ""}), "/file/vault", "/file.db", "/file/model", 7, file},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(tt.path, env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			got := []any{c.Vault, c.DB, c.Model, c.Search.K, c.File}
			want := []any{tt.vault, tt.db, tt.model, tt.k, tt.file}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("vault, db, model, k, file = %q, want %q", got, want)
			}
		})
	}
}

func TestPaths(t *testing.T) {
	home := t.TempDir()
	cfgDir := filepath.Join(home, "cfg")
	e := env(map[string]string{"HOME": home})
	tests := []struct {
		name    string
		content string
		vault   string
	}{
		{"tilde slash", `vault = "~/Notes"`, filepath.Join(home, "Notes")},
		{"tilde alone", `vault = "~"`, home},
		{"relative to the file", `vault = "notes/main"`, filepath.Join(cfgDir, "notes", "main")},
		{"dot dot", `vault = "../Notes"`, filepath.Join(home, "Notes")},
		{"absolute", `vault = "/srv/vault"`, "/srv/vault"},
		{"tilde user is not expanded", `vault = "~bob/x"`, filepath.Join(cfgDir, "~bob", "x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, cfgDir, "config.toml", tt.content)
			c, err := Load(p, e)
			if err != nil {
				t.Fatal(err)
			}
			if c.Vault != tt.vault {
				t.Errorf("Vault = %q, want %q", c.Vault, tt.vault)
			}
		})
	}
	t.Run("tilde in the config path and in env", func(t *testing.T) {
		writeFile(t, home, "my.toml", "db = \"x.db\"\n")
		c, err := Load("~/my.toml", env(map[string]string{"HOME": home, EnvVault: "~/v", EnvModel: "~/m"}))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{filepath.Join(home, "v"), filepath.Join(home, "x.db"), filepath.Join(home, "m"), filepath.Join(home, "my.toml")}
		if got := []string{c.Vault, c.DB, c.Model, c.File}; !slices.Equal(got, want) {
			t.Errorf("vault, db, model, file = %q, want %q", got, want)
		}
	})
	t.Run("relative env paths stay relative", func(t *testing.T) {
		c, err := Load("", env(map[string]string{"HOME": home, EnvVault: "notes"}))
		if err != nil {
			t.Fatal(err)
		}
		if c.Vault != "notes" {
			t.Errorf("Vault = %q, want %q", c.Vault, "notes")
		}
	})
}

func TestXDG(t *testing.T) {
	tests := []struct {
		name             string
		env              map[string]string
		config, db, data string
	}{
		{
			name:   "defaults under HOME",
			env:    map[string]string{"HOME": "/h"},
			config: "/h/.config/vaultctx/config.toml", db: "/h/.local/share/vaultctx/index.db",
			data: "/h/.local/share/vaultctx",
		},
		{
			name: "XDG variables",
			env: map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d",
				"XDG_CACHE_HOME": "/k", "XDG_STATE_HOME": "/s"},
			config: "/c/vaultctx/config.toml", db: "/d/vaultctx/index.db",
			data: "/d/vaultctx",
		},
		{
			name: "relative XDG values are ignored",
			env: map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "c", "XDG_DATA_HOME": "./d",
				"XDG_CACHE_HOME": "k", "XDG_STATE_HOME": "s"},
			config: "/h/.config/vaultctx/config.toml", db: "/h/.local/share/vaultctx/index.db",
			data: "/h/.local/share/vaultctx",
		},
		{
			name:   "VAULTCTX variables win",
			env:    map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/c", EnvConfig: "/etc/vaultctx.toml", EnvDB: "~/idx.db"},
			config: "/etc/vaultctx.toml", db: "/h/idx.db",
			data: "/h/.local/share/vaultctx",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := env(tt.env)
			got := []string{DefaultPath(e), DefaultDB(e), DataDir(e)}
			want := []string{tt.config, tt.db, tt.data}
			if !slices.Equal(got, want) {
				t.Errorf("DefaultPath, DefaultDB, DataDir =\n%q\nwant\n%q", got, want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		want    string // the whole message when exact, else a substring
		exact   bool
		wantErr error
	}{
		{name: "unknown key with suggestion", file: "vault = \"/v\"\nvualt = 1\n",
			want: `config: unknown key "vualt" (did you mean "vault"?)`, exact: true, wantErr: ErrUnknownKey},
		{name: "unknown key without suggestion", file: "colour = \"blue\"\n",
			want: `config: unknown key "colour"`, exact: true, wantErr: ErrUnknownKey},
		{name: "unknown nested key", file: "[search]\nkk = 3\n",
			want: `config: unknown key "search.kk" (did you mean "search.k"?)`, exact: true, wantErr: ErrUnknownKey},
		{name: "key outside its table", file: "k = 3\n",
			want: `config: unknown key "k" (did you mean "search.k"?)`, exact: true, wantErr: ErrUnknownKey},
		{name: "unknown table is named once", file: "[serach]\nk = 3\ncandidates = 5\n",
			want: `config: unknown key "serach" (did you mean "search"?)`, exact: true, wantErr: ErrUnknownKey},
		{name: "wrong case", file: "Vault = \"/v\"\n",
			want: `config: unknown key "Vault" (did you mean "vault"?)`, exact: true, wantErr: ErrUnknownKey},
		{name: "several unknown keys", file: "exlude = []\n[hooks]\ndeadline = 3\n",
			want: `config: unknown key "exlude" (did you mean "exclude"?), "hooks.deadline" (did you mean "hooks.deadline_ms"?)`, exact: true, wantErr: ErrUnknownKey},
		{name: "negative k", file: "[search]\nk = -1\n",
			want: "config: invalid search.k = -1: must be at least 1", exact: true, wantErr: ErrInvalid},
		{name: "zero candidates", file: "[search]\ncandidates = 0\n", want: "search.candidates = 0", wantErr: ErrInvalid},
		{name: "nan rrf_k", file: "[search]\nrrf_k = nan\n", want: "search.rrf_k = NaN", wantErr: ErrInvalid},
		{name: "infinite weight", file: "[search]\nbm25_weight = inf\n", want: "search.bm25_weight = +Inf", wantErr: ErrInvalid},
		{name: "both weights zero", file: "[search]\nbm25_weight = 0\nvector_weight = 0\n", want: "search.bm25_weight and search.vector_weight", wantErr: ErrInvalid},
		{name: "negative lead", file: "[search]\nbm25_lead = -1\n", want: "search.bm25_lead = -1", wantErr: ErrInvalid},
		{name: "negative column", file: "[search]\nbm25_columns = [1, -0.5, 0.3]\n", want: "search.bm25_columns[1] = -0.5", wantErr: ErrInvalid},
		{name: "all columns zero", file: "[search]\nbm25_columns = [0, 0, 0]\n", want: "search.bm25_columns: all are 0", wantErr: ErrInvalid},
		{name: "too few columns", file: "[search]\nbm25_columns = [1, 0.5]\n", want: `"search.bm25_columns"`},
		{name: "zero size cap", file: "max_file_bytes = 0\n", want: "max_file_bytes = 0", wantErr: ErrInvalid},
		{name: "zero deadline", file: "[hooks]\ndeadline_ms = 0\n", want: "hooks.deadline_ms = 0", wantErr: ErrInvalid},
		{name: "negative budget", file: "[hooks]\nprompt_budget_tokens = -5\n", want: "hooks.prompt_budget_tokens = -5", wantErr: ErrInvalid},
		{name: "min score above 1", file: "[hooks]\nmin_score = 1.5\n", want: "hooks.min_score = 1.5", wantErr: ErrInvalid},
		{name: "hook switch as a string", file: "[hooks]\nposttooluse = \"off\"\n", want: `"hooks.posttooluse"`},
		{name: "misspelt hook switch", file: "[hooks]\npostooluse = false\n",
			want: `config: unknown key "hooks.postooluse" (did you mean "hooks.posttooluse"?)`, exact: true, wantErr: ErrUnknownKey},
		{name: "empty passthrough prefix", file: "[hooks]\noutput_passthrough = [\"git diff\", \" \"]\n",
			want: `config: invalid hooks.output_passthrough[1] = " ": must name a command (at least one word)`, exact: true, wantErr: ErrInvalid},
		{name: "passthrough as a string", file: "[hooks]\noutput_passthrough = \"git diff\"\n", want: `"hooks.output_passthrough"`},
		{name: "wrong type", file: "max_file_bytes = \"big\"\n", want: `"max_file_bytes"`},
		{name: "string for a list", file: "exclude = \"Archive\"\n", want: `"exclude"`},
		{name: "bad exclude rule", file: "exclude = [\"Archive\", \"../up\"]\n", want: `exclude[1] "../up"`, wantErr: vault.ErrBadRule},
		{name: "empty include rule", file: "include = [\"\"]\n", want: `include[0] ""`, wantErr: vault.ErrBadRule},
		{name: "empty extension", file: "extensions = [\"md\", \"\"]\n", want: `extensions[1] ""`, wantErr: vault.ErrBadRule},
		{name: "syntax error names the line", file: "vault = \"/v\"\ndb = \n", want: "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(strings.NewReader(tt.file))
			if err == nil {
				t.Fatalf("Parse = nil error, want %q", tt.want)
			}
			if tt.exact && err.Error() != tt.want {
				t.Errorf("error = %q\nwant    %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to contain %q", err, tt.want)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error = %v, does not wrap %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(c, Defaults()) {
				t.Errorf("on error Parse returned %+v, want Defaults()", c)
			}
		})
	}
}

func TestParseValues(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		check func(Config) bool
	}{
		{"empty file is the defaults", "", func(c Config) bool { return reflect.DeepEqual(c, Defaults()) }},
		{"comments only", "# nothing\n", func(c Config) bool { return reflect.DeepEqual(c, Defaults()) }},
		{"extensions normalised", `extensions = ["md", ".Markdown", "TXT"]`,
			func(c Config) bool { return slices.Equal(c.Extensions, []string{".md", ".markdown", ".txt"}) }},
		{"integers for floats", "[search]\nrrf_k = 20\nbm25_columns = [2, 1, 0]\n",
			func(c Config) bool { return c.Search.RRFK == 20 && c.Search.Columns == [3]float64{2, 1, 0} }},
		{"one weight zero is fine", "[search]\nvector_weight = 0\n",
			func(c Config) bool { return c.Search.VectorWeight == 0 && c.Search.BM25Weight == 1 }},
		{"one weight zero reaches the search options", "[search]\nvector_weight = 0\n",
			func(c Config) bool {
				o := c.Search.Options("", 0)
				return o.VectorWeight == 0 && o.BM25Weight == 1
			}},
		{"lead 0 is plain RRF", "[search]\nbm25_lead = 0\n",
			func(c Config) bool { return c.Search.BM25Lead == 0 && c.Search.Options("", 0).BM25Lead == 0 }},
		{"unset table keys keep defaults", "[hooks]\ndeadline_ms = 900\n",
			func(c Config) bool { return c.Hooks.DeadlineMS == 900 && c.Hooks.PromptBudgetTokens == 500 }},
		{"dotted keys", "search.k = 4\nhooks.min_score = 0.4\n",
			func(c Config) bool { return c.Search.K == 4 && c.Hooks.MinScore == 0.4 }},
		{"empty lists", "include = []\nexclude = []\n",
			func(c Config) bool { return len(c.Include) == 0 && len(c.Exclude) == 0 }},
		{"every hook on by default", "",
			func(c Config) bool {
				return c.Hooks.Enabled(HookUserPrompt) && c.Hooks.Enabled(HookPreToolUse) && c.Hooks.Enabled(HookPostToolUse) &&
					c.Hooks.OutputPassthrough == nil
			}},
		{"one hook off", "[hooks]\nposttooluse = false\n",
			func(c Config) bool {
				return c.Hooks.Enabled(HookUserPrompt) && c.Hooks.Enabled(HookPreToolUse) && !c.Hooks.Enabled(HookPostToolUse)
			}},
		{"switches set to true are on", "[hooks]\nuserprompt = true\npretooluse = false\n",
			func(c Config) bool { return c.Hooks.Enabled(HookUserPrompt) && !c.Hooks.Enabled(HookPreToolUse) }},
		{"passthrough prefixes", "[hooks]\noutput_passthrough = [\"terraform plan\", \"git diff\"]\n",
			func(c Config) bool {
				return slices.Equal(c.Hooks.OutputPassthrough, []string{"terraform plan", "git diff"})
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(strings.NewReader(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("Parse(%q) = %+v", tt.file, c)
			}
		})
	}
}

// TestDefaultsAreFresh guards against the decoder writing a file's list into
// the backing array of the defaults' list.
func TestDefaultsAreFresh(t *testing.T) {
	d := Defaults()
	d.Extensions[0] = ".changed"
	if got := Defaults().Extensions; !slices.Equal(got, []string{".md"}) {
		t.Fatalf("Defaults().Extensions = %q after a caller changed a copy", got)
	}
	if _, err := Parse(strings.NewReader(`extensions = ["txt"]`)); err != nil {
		t.Fatal(err)
	}
	if got := Defaults().Extensions; !slices.Equal(got, []string{".md"}) {
		t.Fatalf("Defaults().Extensions = %q after Parse", got)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.toml", "[search]\nk = 0\n")
	tests := []struct {
		name    string
		path    string
		env     map[string]string
		want    string
		wantErr error
	}{
		{"missing explicit file", filepath.Join(dir, "nope.toml"), nil, "nope.toml", fs.ErrNotExist},
		{"missing file named by VAULTCTX_CONFIG", "", map[string]string{EnvConfig: filepath.Join(dir, "typo.toml")}, "typo.toml", fs.ErrNotExist},
		{"invalid value names the file", bad, nil, "config " + bad + ": invalid search.k = 0", ErrInvalid},
		{"a folder is not a config file", dir, nil, "config", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := map[string]string{"HOME": dir}
			for k, v := range tt.env {
				m[k] = v
			}
			_, err := Load(tt.path, env(m))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, does not wrap %v", err, tt.wantErr)
			}
		})
	}
}

func TestValidateAfterFlags(t *testing.T) {
	c := Defaults()
	if err := c.Validate(); err != nil {
		t.Fatalf("Defaults().Validate() = %v", err)
	}
	c.Search.K = 0 // as a caller would after a bad -k flag
	if err := c.Validate(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "search.k = 0") {
		t.Errorf("Validate() = %v, want an ErrInvalid naming search.k", err)
	}
	c = Defaults()
	c.Exclude = []string{"**"}
	if err := c.Validate(); !errors.Is(err, vault.ErrBadRule) {
		t.Errorf("Validate() = %v, want vault.ErrBadRule", err)
	}
}

func TestRules(t *testing.T) {
	c, err := Parse(strings.NewReader("include = [\"A\"]\nexclude = [\"A/Old\"]\nextensions = [\"md\", \"txt\"]\nmax_file_bytes = 1000\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := vault.Rules{Include: []string{"A"}, Exclude: []string{"A/Old"}, Extensions: []string{".md", ".txt"}, MaxFileBytes: 1000}
	if got := c.Rules(); !reflect.DeepEqual(got, want) {
		t.Errorf("Rules() = %+v, want %+v", got, want)
	}
	r := c.Rules()
	for p, want := range map[string]bool{"A/x.md": true, "A/y.txt": true, "A/Old/z.md": false, "B/x.md": false} {
		if got := r.Match(p); got != want {
			t.Errorf("Rules().Match(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"vault", "vault", 0},
		{"vualt", "vault", 1}, // transposition
		{"exlude", "exclude", 1},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts is
// valid: the ranges hold and the rules compile.
func FuzzParse(f *testing.F) {
	sample, err := os.ReadFile("testdata/full.toml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sample)
	f.Add([]byte("vault = \"~/n\"\n[search]\nk = 3\n"))
	f.Add([]byte("exclude = [\"**/a\", \"b/*\"]\n"))
	f.Add([]byte("[hooks]\nmin_score = 0.5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(bytes.NewReader(data))
		if err != nil {
			if !reflect.DeepEqual(c, Defaults()) {
				t.Errorf("on error Parse returned %+v", c)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Errorf("Parse accepted an invalid config: %v", err)
		}
		for _, e := range c.Extensions {
			if n, err := vault.NormalizeExtension(e); err != nil || n != e {
				t.Errorf("extension %q not normalised", e)
			}
		}
	})
}

func TestSearchSummary(t *testing.T) {
	s := Defaults().Search
	want := fmt.Sprintf("candidates %d, rrf_k %g, bm25_weight %g, vector_weight %g, min_cosine %g, bm25_lead %d, bm25_columns [%g %g %g]",
		s.Candidates, s.RRFK, s.BM25Weight, s.VectorWeight, s.MinCosine, s.BM25Lead, s.Columns[0], s.Columns[1], s.Columns[2])
	if got := s.Summary(); got != want {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
	// Every fusion key's TOML name appears, so a report names what to set.
	for _, key := range []string{"candidates", "rrf_k", "bm25_weight", "vector_weight", "min_cosine", "bm25_lead", "bm25_columns"} {
		if !slices.Contains(knownKeys(), "search."+key) || !strings.Contains(s.Summary(), key+" ") {
			t.Errorf("Summary() or the config lacks search.%s: %q", key, s.Summary())
		}
	}
}
