package service

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// odd is a folder name that needs quoting in both formats: a space, a
// quote, a percent sign (a systemd specifier), a dollar, XML's & and <.
const odd = `my "notes" 100% $HOME & <x>`

func options(t *testing.T, goos string) (Options, string) {
	t.Helper()
	dir := t.TempDir()
	// systemd refuses quotes in the program's own path (Make says so).
	bin := filepath.Join(dir, "my tools 100% $x & <y>", "bin", "vaultctx")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": filepath.Join(dir, "home"), "XDG_CONFIG_HOME": filepath.Join(dir, "config")}
	return Options{
		GOOS: goos, Getenv: func(k string) string { return env[k] }, Binary: bin, UID: 501,
		Vault: filepath.Join(dir, odd, "vault"), DB: filepath.Join(dir, "index.db"), Config: filepath.Join(dir, "config.toml"),
	}, dir
}

func TestSystemdUnit(t *testing.T) {
	o, dir := options(t, "linux")
	p, err := Make(o)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "config", "systemd", "user", SystemdUnit); p.Path != want {
		t.Errorf("path %s, want %s", p.Path, want)
	}
	want := []string{o.Binary, "--config", o.Config, "watch", "--vault", o.Vault, "--db", o.DB}
	if !slices.Equal(p.Args, want) {
		t.Errorf("args %q, want %q", p.Args, want)
	}
	exec1 := ""
	for _, l := range strings.Split(string(p.Content), "\n") {
		if strings.HasPrefix(l, "ExecStart=") {
			exec1 = l
		}
	}
	if !strings.Contains(exec1, `"`+strings.NewReplacer(`"`, `\"`, "%", "%%", "$", "$$").Replace(o.Vault)+`"`) {
		t.Errorf("the vault is not quoted for systemd: %s", exec1)
	}
	if !slices.ContainsFunc(p.Start, func(c []string) bool {
		return slices.Equal(c, []string{"systemctl", "--user", "enable", "--now", SystemdUnit})
	}) {
		t.Errorf("start commands %q", p.Start)
	}
	if err := Install(p); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p.Path); err != nil || !bytes.Equal(b, p.Content) {
		t.Fatalf("installed file: %v", err)
	}

	// systemd's own parser, where it is installed: it checks every
	// directive and that ExecStart names an executable (after unquoting).
	// It needs a runtime folder for --user.
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if sa, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Log("systemd-analyze not installed: the unit is not checked by systemd (apt-get install systemd)")
	} else {
		out, err := exec.Command(sa, "verify", "--user", p.Path).CombinedOutput()
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("systemd-analyze verify: %v\n%s\n%s", err, out, p.Content)
		}
		// And it can fail: a unit whose program is missing.
		bad := filepath.Join(t.TempDir(), SystemdUnit)
		os.WriteFile(bad, bytes.Replace(p.Content, []byte("/bin/vaultctx"), []byte("/bin/missing"), 1), 0o644)
		if out, err := exec.Command(sa, "verify", "--user", bad).CombinedOutput(); err == nil && len(bytes.TrimSpace(out)) == 0 {
			t.Errorf("systemd-analyze accepts a unit with a missing program:\n%s", out)
		}
	}

	if err := Uninstall(p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.Path); !os.IsNotExist(err) {
		t.Errorf("the unit is still there: %v", err)
	}
	if err := Uninstall(p); err != nil {
		t.Errorf("second uninstall: %v", err)
	}
}

// plistValue is one value of a property list, as encoding/xml reads it.
type plistValue struct {
	XMLName xml.Name
	Text    string       `xml:",chardata"`
	Items   []plistValue `xml:",any"`
}

func TestLaunchdAgent(t *testing.T) {
	o, dir := options(t, "darwin")
	o.Model = filepath.Join(dir, "model")
	p, err := Make(o)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "home", "Library", "LaunchAgents", LaunchdLabel+".plist"); p.Path != want {
		t.Errorf("path %s, want %s", p.Path, want)
	}
	// plutil is not available here: parse the XML and check its shape.
	var root struct {
		XMLName xml.Name
		Version string     `xml:"version,attr"`
		Dict    plistValue `xml:"dict"`
	}
	dec := xml.NewDecoder(bytes.NewReader(p.Content))
	dec.Strict = true
	if err := dec.Decode(&root); err != nil {
		t.Fatalf("not XML: %v\n%s", err, p.Content)
	}
	if root.XMLName.Local != "plist" || root.Version != "1.0" {
		t.Fatalf("root <%s version=%q>", root.XMLName.Local, root.Version)
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if cd, ok := tok.(xml.CharData); !ok || len(bytes.TrimSpace(cd)) > 0 {
			t.Fatalf("more after </plist>: %v %v", tok, err)
		}
	}
	kv := map[string]plistValue{}
	items := root.Dict.Items
	if len(items)%2 != 0 {
		t.Fatalf("odd number of dict items: %+v", items)
	}
	for i := 0; i < len(items); i += 2 {
		if items[i].XMLName.Local != "key" {
			t.Fatalf("dict item %d is <%s>, want <key>", i, items[i].XMLName.Local)
		}
		kv[items[i].Text] = items[i+1]
	}
	if l := kv["Label"]; l.XMLName.Local != "string" || l.Text != LaunchdLabel {
		t.Errorf("Label %+v", l)
	}
	var args []string
	for _, a := range kv["ProgramArguments"].Items {
		if a.XMLName.Local != "string" {
			t.Errorf("ProgramArguments holds <%s>", a.XMLName.Local)
		}
		args = append(args, a.Text)
	}
	want := []string{o.Binary, "--config", o.Config, "watch", "--vault", o.Vault, "--db", o.DB, "--model", o.Model}
	if !slices.Equal(args, want) {
		t.Errorf("ProgramArguments %q, want %q", args, want)
	}
	for k, typ := range map[string]string{"RunAtLoad": "true", "KeepAlive": "dict", "StandardErrorPath": "string", "ProcessType": "string"} {
		if kv[k].XMLName.Local != typ {
			t.Errorf("%s is <%s>, want <%s>", k, kv[k].XMLName.Local, typ)
		}
	}
	if !slices.ContainsFunc(p.Start, func(c []string) bool { return slices.Equal(c, []string{"launchctl", "bootstrap", "gui/501", p.Path}) }) {
		t.Errorf("start commands %q", p.Start)
	}
}

func TestRefused(t *testing.T) {
	o, _ := options(t, "windows")
	if _, err := Make(o); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Make on windows: %v, want ErrUnsupported", err)
	}
	o, dir := options(t, "linux")
	o.Binary = filepath.Join(dir, `a"b`, "vaultctx")
	if _, err := Make(o); err == nil || !strings.Contains(err.Error(), "quote") {
		t.Errorf("a program path systemd cannot run: %v", err)
	}
}
