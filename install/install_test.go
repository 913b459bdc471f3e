package install

import (
	"bytes"
	"os/exec"
	"testing"
)

// TestInstallScript runs scripts/install_test.sh: scripts/install.sh end to
// end in a temporary HOME with the demo vault and the GloVe model from
// ../shared (no network), `vaultctx doctor` with every check passing,
// a re-run, --uninstall and --purge. It builds four cgo binaries, so -short
// skips it.
func TestInstallScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and installs the binaries; skipped with -short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	cmd := exec.CommandContext(t.Context(), "bash", "../scripts/install_test.sh")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	t.Log(out.String())
	if err != nil {
		t.Fatalf("scripts/install_test.sh: %v", err)
	}
}

// TestSettingsTemplateEmbedded guards the go:embed: the template must be
// the file beside this package, not empty.
func TestSettingsTemplateEmbedded(t *testing.T) {
	if !bytes.Contains(SettingsTemplate, []byte(`"hooks"`)) || !bytes.Contains(SettingsTemplate, []byte("{{json .UserPrompt}}")) {
		t.Fatalf("SettingsTemplate does not look like settings.json.tmpl:\n%s", SettingsTemplate)
	}
}
