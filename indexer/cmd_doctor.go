package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/vaultctx/vaultctx/core/doctor"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/install"
)

// doctorCmd is `vaultctx doctor`: it runs every check (core/doctor),
// prints ✓, ! (passed with a caveat) or ✗ for each, a one-line fix under
// ! and ✗, and exits 1 when any check failed.
type doctorCmd struct {
	DB string `help:"Index file to check (default: as for index); the hook round trips are run with it too (as VAULTCTX_DB)." type:"path" placeholder:"FILE"`
}

// Run executes every check and prints one line each (plus a fix line for
// failures) to stdout, as each check ends.
func (c *doctorCmd) Run(g *globals) error {
	dir, _ := binDir("")
	nfailed := 0
	w := os.Stdout
	findings := doctor.Run(g.Ctx, doctor.Options{
		ConfigPath:       g.ConfigPath,
		DB:               c.DB,
		Getenv:           os.Getenv,
		BinDir:           dir,
		SettingsTemplate: install.SettingsTemplate,
		OnFinding: func(f doctor.Finding) {
			switch f.Status {
			case doctor.Fail:
				nfailed++
				fmt.Fprintf(w, "✗ %s: %s\n    fix: %s\n", f.Check, f.Message, c.fix(f))
			case doctor.Warn:
				fmt.Fprintf(w, "! %s: %s\n    fix: %s\n", f.Check, f.Message, c.fix(f))
			default:
				if f.Hint != doctor.NoHint {
					fmt.Fprintf(w, "✓ %s: %s (%s)\n", f.Check, f.Message, c.fix(f))
				} else {
					fmt.Fprintf(w, "✓ %s: %s\n", f.Check, f.Message)
				}
			}
		},
	})
	if err := g.Ctx.Err(); err != nil {
		return errInterrupted
	}
	if nfailed > 0 {
		return fmt.Errorf("doctor: %d of %d checks failed", nfailed, len(findings))
	}
	return nil
}

// fix words a finding's hint as the fix line doctor prints: doctorFix,
// fitted to the command line by advice, as every command's hint is: --db
// added to the commands it names when doctor was given one, and
// vaultPlaceholder to the index runs it names when no vault is known.
func (c *doctorCmd) fix(f doctor.Finding) string {
	return advice(doctorFix(f), "", f.VaultUnknown, c.DB)
}

// doctorFix words a finding's hint as the one-line fix doctor prints.
func doctorFix(f doctor.Finding) string {
	switch f.Hint {
	case doctor.HintInstall:
		return runInstaller("") + " to build them"
	case doctor.HintAddToPath:
		return fmt.Sprintf("add %s to PATH: export PATH=\"%s:$PATH\"", f.Subject, f.Subject)
	case doctor.HintFixConfigFile:
		return "fix the file named above, or re-create it: " + runInstaller(" --vault DIR")
	case doctor.HintSetVault:
		return fmt.Sprintf("set vault = \"/path/to/notes\" in %s (or %s)", f.Subject, runInstaller(" --vault DIR"))
	case doctor.HintVaultDir:
		return "point vault at an existing folder in the config"
	case doctor.HintFixConfig:
		return "fix the config first"
	case doctor.HintIndex:
		return "run: vaultctx index"
	case doctor.HintRebuildIndex:
		return "rebuild it: vaultctx index --full (it replaces a damaged file)"
	case doctor.HintNewerIndex:
		return "a newer vaultctx wrote it: run that version (vaultctx index --full would rebuild it for this one)"
	case doctor.HintFreeSpace:
		return "free space on the disk that holds the index"
	case doctor.HintIndexPath:
		return "point db in the config (or VAULTCTX_DB, or --db) at a file of its own, such as index.db in an empty folder"
	case doctor.HintCgo:
		return "rebuild with cgo enabled: " + runInstaller("")
	case doctor.HintHome:
		return "set HOME or CLAUDE_CONFIG_DIR"
	case doctor.HintEnableHooks:
		return `set "disableAllHooks": false in ` + f.Subject
	case doctor.HintInstallHooks:
		return "run: vaultctx hooks install"
	case doctor.HintBug:
		return "report this as a bug"
	case doctor.HintRunHook:
		return "run it by hand to see why: " + f.Subject
	case doctor.HintRebuildHooks:
		return "rebuild the hooks: " + runInstaller("")
	case doctor.HintPullModel:
		return "run: vaultctx model pull, and if the config names another folder, set model to the one it prints"
	case doctor.HintRedownloadModel:
		return "re-download it: vaultctx model pull"
	case doctor.HintEmbed:
		return "run: vaultctx index (it embeds the notes)"
	case doctor.HintReembed:
		return "re-embed with this model: vaultctx index --full"
	case doctor.HintHybridSetup:
		return "for hybrid search: vaultctx model pull && vaultctx index"
	case doctor.HintWireOrTurnOff:
		return "run: vaultctx hooks install to wire " + f.Subject + ", or set " + switches(f.Subject, "false") + " under [hooks] in the config to keep it off"
	case doctor.HintUnwire:
		return "run: vaultctx hooks install to take it out of settings.json (or set " + switches(f.Subject, "true") + " under [hooks] to turn it on)"
	case doctor.HintConfigHooks:
		return `set under [hooks] in ` + f.Subject + `: output_passthrough = ["terraform plan", ...]`
	case doctor.HintStatus:
		return "vaultctx status lists them"
	case doctor.HintOtherVault:
		return otherVaultFix
	case doctor.HintFixHookDir:
		return "create " + f.Subject + ", or take the cd out of the hook's entry in settings.json (a re-install keeps it)"
	case doctor.HintIndexLink:
		return fmt.Sprintf("remove or fix the link (ls -l %s shows where it leads), or point db in the config (or VAULTCTX_DB, or --db) at a file of its own", settings.ShellQuote(f.Subject))
	case doctor.HintIndexLocked:
		return lockedFix
	case doctor.HintWALUnread:
		return walUnreadFix
	case doctor.HintOwnerIndex:
		return readOnlyFix
	case doctor.HintNotAnIndex:
		return notAnIndexFix
	case doctor.HintIndexUnreadable:
		return "fix what the message names (the file's permissions, its folder, the disk), or point db in the config (or VAULTCTX_DB, or --db) at a file of its own"
	}
	return ""
}

// switches renders "a, b" as "a = v, b = v".
func switches(names, v string) string {
	parts := strings.Split(names, ", ")
	for i, p := range parts {
		parts[i] = p + " = " + v
	}
	return strings.Join(parts, ", ")
}
