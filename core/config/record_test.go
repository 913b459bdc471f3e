package config

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestRecordModel: each shape of config file gets the model line where TOML
// reads it as the top-level key, every other byte kept; a file that names
// a model already is not touched.
func TestRecordModel(t *testing.T) {
	const model = "/data/models/potion"
	installer := "# vaultctx config, written by scripts/install.sh. Keys: vault, db, model, include,\n" +
		"# exclude, extensions, max_file_bytes. Environment VAULTCTX_* and flags override them.\n" +
		"vault = \"/notes\"\n\n[hooks]\nposttooluse = false\n"
	tests := []struct {
		name, src string
		want      string // the file afterwards; "" = unchanged
		named     string // rec.Model; "" = model
	}{
		{"installer's file with a table", installer,
			strings.Replace(installer, "vault = \"/notes\"\n", "vault = \"/notes\"\nmodel = \"/data/models/potion\"\n", 1), ""},
		{"keys only, no final newline", "vault = \"/notes\"\nexclude = [\"Archive\"]",
			"vault = \"/notes\"\nexclude = [\"Archive\"]\nmodel = \"/data/models/potion\"\n", ""},
		{"comments only", "# nothing yet\n", "# nothing yet\nmodel = \"/data/models/potion\"\n", ""},
		{"empty", "", "model = \"/data/models/potion\"\n", ""},
		{"a table first", "# c\n[search]\nk = 5\n", "# c\nmodel = \"/data/models/potion\"\n[search]\nk = 5\n", ""},
		{"CRLF", "vault = \"/notes\"\r\n[search]\r\nk = 5\r\n",
			"vault = \"/notes\"\r\nmodel = \"/data/models/potion\"\r\n[search]\r\nk = 5\r\n", ""},
		{"a multi-line string holding a [table] line", "vault = '''/notes\n[search]'''\n[hooks]\ndeadline_ms = 100\n",
			// At the top: the first place it tries is inside the string.
			"model = \"/data/models/potion\"\nvault = '''/notes\n[search]'''\n[hooks]\ndeadline_ms = 100\n", ""},
		{"the same model", "model = \"/data/models/potion/\"\n", "", ""},
		{"the same model, relative to the file", "model = \"models/potion\"\n", "", "(dir)/models/potion"},
		{"another model", "vault = \"/notes\"\nmodel = \"/models/glove\"\n", "", "/models/glove"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeFile(t, dir, "config.toml", tc.src)
			m := model
			if strings.HasPrefix(tc.named, "(dir)") {
				m = filepath.Join(dir, "models/potion")
			}
			rec, err := RecordModel(path, m, env(nil))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			want := tc.want
			if want == "" {
				want = tc.src
			}
			if string(got) != want {
				t.Errorf("file =\n%q\nwant\n%q", got, want)
			}
			if rec.Written != (tc.want != "") || rec.Created || rec.File != path {
				t.Errorf("rec = %+v, want Written %v for %s", rec, tc.want != "", path)
			}
			named := strings.Replace(tc.named, "(dir)", dir, 1)
			if named == "" {
				named = model
			}
			if rec.Model != named {
				t.Errorf("rec.Model = %q, want %q", rec.Model, named)
			}
			if c, err := Load(path, env(map[string]string{"HOME": dir})); err != nil || filepath.Clean(c.Model) != named {
				t.Errorf("Load after RecordModel: model %q, %v; want %q", c.Model, err, named)
			}
		})
	}
}

// TestRecordModelCreates: no config file yet; it is created with its
// folder, and Load reads the model from it.
func TestRecordModelCreates(t *testing.T) {
	home := t.TempDir()
	getenv := env(map[string]string{"HOME": home})
	model := filepath.Join(home, "my models", `quote" and \ back`)
	rec, err := RecordModel("", model, getenv)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(home, ".config", "vaultctx", "config.toml")
	if !rec.Written || !rec.Created || rec.File != want || rec.Model != model {
		t.Errorf("rec = %+v, want a created %s", rec, want)
	}
	c, err := Load("", getenv)
	if err != nil || c.Model != model || c.File != want {
		t.Errorf("Load: %+v, %v", c, err)
	}
	data, _ := os.ReadFile(want)
	if !strings.HasPrefix(string(data), CreatedHeader+"\n") {
		t.Errorf("no header:\n%s", data)
	}
	// A second pull changes nothing.
	if rec, err := RecordModel("", model, getenv); err != nil || rec.Written {
		t.Errorf("second RecordModel: %+v, %v", rec, err)
	}
	if again, _ := os.ReadFile(want); !bytes.Equal(again, data) {
		t.Errorf("second RecordModel changed the file")
	}
}

// TestRecordModelKeepsLinkModeAndBadFiles: a symlinked config stays a
// link (its target is edited) and keeps its mode; an invalid file is an
// error naming it and stays as it was.
func TestRecordModelKeepsLinkModeAndBadFiles(t *testing.T) {
	dir := t.TempDir()
	target := writeFile(t, dir, "dotfiles/vaultctx.toml", "vault = \"/notes\"\n")
	os.Chmod(target, 0o600)
	link := filepath.Join(dir, "config.toml")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	rec, err := RecordModel(link, "/m", env(nil))
	if err != nil || !rec.Written || rec.File != target {
		t.Fatalf("RecordModel through a link: %+v, %v", rec, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the config is no longer a symlink: %v", err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if got, _ := os.ReadFile(target); string(got) != "vault = \"/notes\"\nmodel = \"/m\"\n" {
		t.Errorf("target = %q", got)
	}

	bad := writeFile(t, dir, "bad.toml", "vault = \"/notes\"\nvualt = 1\n")
	if _, err := RecordModel(bad, "/m", env(nil)); err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "vualt") {
		t.Errorf("RecordModel on a bad file = %v, want an error naming it and the key", err)
	}
	if got, _ := os.ReadFile(bad); string(got) != "vault = \"/notes\"\nvualt = 1\n" {
		t.Errorf("the bad file was changed: %q", got)
	}
}

// FuzzRecordModel: for any config file that parses and names no model,
// RecordModel either writes a file that parses to the same config with the
// model set, or fails and leaves the file byte for byte.
func FuzzRecordModel(f *testing.F) {
	for _, s := range []string{
		"", "vault = \"/n\"\n", "# c\n\n[search]\nk = 3\n", "vault = '''a\n[x]'''\n[hooks]\n",
		"include = [\n  \"a\",\n]\n[search]\nbm25_columns = [\n1.0, 0.5,\n0.3]\n", "\ufeffvault = \"x\"\r\n",
		"vault = \"/n\" # trailing\n[hooks] # t\nuserprompt = false",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		old, err := Parse(strings.NewReader(src))
		if err != nil || old.Model != "" {
			return
		}
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		rec, err := RecordModel(path, "/models/m", env(nil))
		got, _ := os.ReadFile(path)
		if err != nil {
			if string(got) != src {
				t.Fatalf("failed (%v) and changed the file:\n%q\n->\n%q", err, src, got)
			}
			return
		}
		c, perr := Parse(bytes.NewReader(got))
		old.Model = "/models/m"
		if perr != nil || !rec.Written || !reflect.DeepEqual(c, old) {
			t.Fatalf("%q -> %q: parse %v, config %+v, want %+v", src, got, perr, c, old)
		}
	})
}
