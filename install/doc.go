// Package install holds the files the installer renders: the Claude Code
// hooks template settings.json.tmpl, embedded so the vaultctx binary
// carries it (SettingsTemplate). core/settings renders and merges it;
// scripts/install.sh drives the whole installation, and its end-to-end
// test (scripts/install_test.sh) runs from this package's tests.
package install
