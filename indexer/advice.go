package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/settings"
)

// vaultPlaceholder is what an advised index run names for the vault when
// no vault is known: the user fills it in.
const vaultPlaceholder = "--vault <your vault>"

// advice returns a hint or a doctor fix as the user must type it. The
// index runs it names take --vault vault (quoted for a shell) when the
// command was given one, else vaultPlaceholder when vaultUnknown (an index
// run would stop at once for want of a vault); and every command it names
// that reads the index takes --db db when the command was given one. It
// is the one place that fits advice to a command line: every command's
// hint (commandAdvice) and doctor's fix lines (doctorCmd.fix) go through
// it.
func advice(s, vault string, vaultUnknown bool, db string) string {
	switch {
	case vault != "":
		// The vault it was given, not the config's, is the one an
		// index run the hint names must take.
		s = withFlags(s, "--vault "+settings.ShellQuote(vault), "vaultctx index")
	case vaultUnknown:
		s = withFlags(s, vaultPlaceholder, "vaultctx index")
	}
	return withDB(s, db)
}

// commandAdvice returns the hint of the failed command name, run with
// args, as advice fits it: the vault is the --vault of index and watch;
// it is unknown when the config (configPath, as --config gave it, and the
// VAULTCTX_* environment) names no vault folder and the index the command
// read (its --db, else the config's) records none (index.KnownVault), as
// doctor finds it for Finding.VaultUnknown.
func commandAdvice(ctx context.Context, configPath, name string, args []string, hint string) string {
	db := dbFlag(args)
	vault := ""
	if name == "index" || name == "watch" {
		vault = flagValue(args, "--vault")
	}
	unknown := false
	if vault == "" && strings.Contains(hint, "vaultctx index") {
		if cfg, err := config.Load(configPath, os.Getenv); err == nil {
			read := cfg.DB
			if db != "" {
				read = config.ExpandPath(db, os.Getenv)
			}
			_, ok := index.KnownVault(ctx, cfg.Vault, read)
			unknown = !ok
		}
	}
	return advice(hint, vault, unknown, db)
}

// runInstaller returns the advice to run the installer with args ("" or
// " --vault DIR"), in words that work from any folder: "run
// /src/vaultctx/scripts/install.sh" when this vaultctx records the source
// tree it was built from (sourceDir) and the script is still there, else
// "run scripts/install.sh in a checkout of the vaultctx source".
func runInstaller(args string) string {
	if sourceDir != "" {
		script := filepath.Join(sourceDir, "scripts", "install.sh")
		if fi, err := os.Stat(script); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return "run " + settings.ShellQuote(script) + args
		}
	}
	return "run scripts/install.sh" + args + " in a checkout of the vaultctx source"
}

// dbFlag returns the value of a --db flag in args ("" when none), so that
// a hint names the index the command was pointed at.
func dbFlag(args []string) string { return flagValue(args, "--db") }

// flagValue returns the value of the flag name (such as "--db") in args,
// as given ("" when none): the word after it, or after its "=".
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// withDB adds --db DB (quoted for a shell) to the commands a hint or fix
// names that read the index: vaultctx index, doctor and status.
func withDB(hint, db string) string {
	if db == "" {
		return hint
	}
	return withFlags(hint, "--db "+settings.ShellQuote(db), "vaultctx index", "vaultctx doctor", "vaultctx status")
}

// withFlags returns s with flags added to every command it names by one
// of names, after the name and a --full that follows it: "run `vaultctx
// index --full`" becomes "run `vaultctx index --full --db x.db`". A name
// that goes on as a longer word ("vaultctx indexes") is not a command.
func withFlags(s, flags string, names ...string) string {
	for _, name := range names {
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(rest, name)
			if i < 0 {
				break
			}
			end := i + len(name)
			if end < len(rest) && isWordByte(rest[end]) {
				b.WriteString(rest[:end])
				rest = rest[end:]
				continue
			}
			if f := " --full"; strings.HasPrefix(rest[end:], f) && (end+len(f) == len(rest) || !isWordByte(rest[end+len(f)])) {
				end += len(f)
			}
			b.WriteString(rest[:end])
			b.WriteString(" " + flags)
			rest = rest[end:]
		}
		b.WriteString(rest)
		s = b.String()
	}
	return s
}

// isWordByte reports whether c continues a command or flag name.
func isWordByte(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
