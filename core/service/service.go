package service

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
	"github.com/vaultctx/vaultctx/core/internal/xdg"
)

//go:embed systemd.service.tmpl
var systemdTmpl string

//go:embed launchd.plist.tmpl
var launchdTmpl string

// Names of the service.
const (
	SystemdUnit  = "vaultctx-watch.service"   // the systemd user unit's name
	LaunchdLabel = "io.github.vaultctx.watch" // the launchd agent's label (its file is LaunchdLabel + ".plist")
)

// Managers.
const (
	Systemd = "systemd"
	Launchd = "launchd"
)

// ErrUnsupported is returned by Plan for a system with neither manager.
var ErrUnsupported = errors.New("no service manager vaultctx knows here (systemd user units on Linux, launchd on macOS)")

// Options say what the service runs and for whom.
type Options struct {
	GOOS   string              // "linux" (systemd) or "darwin" (launchd)
	Getenv func(string) string // HOME, XDG_CONFIG_HOME, XDG_STATE_HOME; nil = os.Getenv
	Binary string              // the vaultctx executable (made absolute)
	Vault  string              // the vault (made absolute; required)
	DB     string              // the index file (made absolute; required)
	Model  string              // the model folder, "" for the configured or recorded one
	Config string              // the config file, "" for none
	UID    int                 // the user's id, for launchctl's gui/UID domain
}

// Plan is one service file and how to load and unload it.
type Plan struct {
	Manager string     // Systemd or Launchd
	Path    string     // where the file goes
	Content []byte     // the file
	Args    []string   // the command line the service runs
	Start   [][]string // commands that load and start it, after the file is written
	Stop    [][]string // commands that stop and unload it, before the file is removed
}

// templateData is what the templates are executed with.
type templateData struct {
	Args       []string
	Vault, Log string
	Label      string
}

// Make returns the plan for o: the rendered unit or agent and its commands.
// Errors: ErrUnsupported for another GOOS, a missing vault or index path,
// no home folder.
func Make(o Options) (Plan, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if o.Vault == "" || o.DB == "" || o.Binary == "" {
		return Plan{}, errors.New("service: the vault, the index and the vaultctx executable are required")
	}
	abs := func(p string) (string, error) {
		if p == "" {
			return "", nil
		}
		return filepath.Abs(p)
	}
	var err error
	d := templateData{Label: LaunchdLabel}
	var bin, vault, db, model, cfg string
	for _, x := range []struct {
		src string
		dst *string
	}{{o.Binary, &bin}, {o.Vault, &vault}, {o.DB, &db}, {o.Model, &model}, {o.Config, &cfg}} {
		if *x.dst, err = abs(x.src); err != nil {
			return Plan{}, fmt.Errorf("service: %w", err)
		}
	}
	d.Vault = vault
	d.Args = []string{bin}
	if cfg != "" {
		d.Args = append(d.Args, "--config", cfg)
	}
	d.Args = append(d.Args, "watch", "--vault", vault, "--db", db)
	if model != "" {
		d.Args = append(d.Args, "--model", model)
	}
	home, err := xdg.Home(getenv)
	if err != nil {
		return Plan{}, fmt.Errorf("service: %w", err)
	}
	p := Plan{Args: d.Args}
	var tmpl string
	switch o.GOOS {
	case "linux":
		dir, err := xdg.ConfigDir(getenv) // $XDG_CONFIG_HOME/vaultctx
		if err != nil {
			return Plan{}, fmt.Errorf("service: %w", err)
		}
		p.Manager, tmpl = Systemd, systemdTmpl
		p.Path = filepath.Join(filepath.Dir(dir), "systemd", "user", SystemdUnit)
		p.Start = [][]string{{"systemctl", "--user", "daemon-reload"}, {"systemctl", "--user", "enable", "--now", SystemdUnit}}
		p.Stop = [][]string{{"systemctl", "--user", "disable", "--now", SystemdUnit}}
	case "darwin":
		p.Manager, tmpl = Launchd, launchdTmpl
		p.Path = filepath.Join(home, "Library", "LaunchAgents", LaunchdLabel+".plist")
		d.Log = filepath.Join(home, "Library", "Logs", "vaultctx-watch.log")
		domain := "gui/" + strconv.Itoa(o.UID)
		p.Start = [][]string{{"launchctl", "bootstrap", domain, p.Path}}
		p.Stop = [][]string{{"launchctl", "bootout", domain + "/" + LaunchdLabel}}
	default:
		return Plan{}, fmt.Errorf("service: %s: %w", o.GOOS, ErrUnsupported)
	}
	if p.Manager == Systemd && strings.ContainsAny(bin, "\"'\\\n") {
		return Plan{}, fmt.Errorf("service: systemd cannot run a program whose path holds a quote, a backslash or a newline: %q", bin)
	}
	t, err := template.New(p.Manager).Funcs(template.FuncMap{"systemd": systemdQuote, "systemdExec": systemdExec, "systemdText": systemdText, "xml": xmlText}).Option("missingkey=error").Parse(tmpl)
	if err != nil {
		return Plan{}, fmt.Errorf("service: %w", err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return Plan{}, fmt.Errorf("service: %w", err)
	}
	p.Content = b.Bytes()
	return p, nil
}

// systemdQuote is one argument of an ExecStart line: in double quotes,
// with backslash and quote escaped, and % and $ doubled so systemd expands
// no specifier or variable (systemd.service(5), "Command lines").
func systemdQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", "%%", "$", "$$", "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// systemdExec is the program word of an ExecStart line: quoted, with %
// doubled; systemd takes a $ there literally, and refuses quotes and
// backslashes in it (Make checks).
func systemdExec(s string) string {
	return `"` + strings.ReplaceAll(s, "%", "%%") + `"`
}

// systemdText is a value such as Description: specifiers (%) doubled, on
// one line.
func systemdText(s string) string {
	return strings.NewReplacer("%", "%%", "\n", " ").Replace(s)
}

// xmlText escapes s for XML character data.
func xmlText(s string) (string, error) {
	var b strings.Builder
	if err := xml.EscapeText(&b, []byte(s)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Install writes p's file (atomically, its folder created).
func Install(p Plan) error {
	if err := os.MkdirAll(filepath.Dir(p.Path), 0o755); err != nil {
		return fmt.Errorf("service install: %w", err)
	}
	if err := fsx.WriteAtomic(p.Path, p.Content, 0o644, true); err != nil {
		return fmt.Errorf("service install: %w", err)
	}
	return nil
}

// Uninstall removes p's file; a missing file is no error.
func Uninstall(p Plan) error {
	if err := os.Remove(p.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("service uninstall: %w", err)
	}
	return nil
}

// Activate runs cmds (Plan.Start or Plan.Stop) in order and stops at the
// first that fails, returning its error with its output.
func Activate(ctx context.Context, cmds [][]string) error {
	for _, c := range cmds {
		out, err := exec.CommandContext(ctx, c[0], c[1:]...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %w: %s", strings.Join(c, " "), err, bytes.TrimSpace(out))
		}
	}
	return nil
}
