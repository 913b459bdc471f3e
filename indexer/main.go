// Command vaultctx indexes an Obsidian-style markdown vault into one SQLite
// file and searches it with BM25, vector KNN, or both fused with RRF.
//
// Usage:
//
//	vaultctx index [--vault DIR] [--db FILE] [--full] [--json] [--background]
//	vaultctx watch [--vault DIR] [--db FILE] [--quiet DURATION]
//	vaultctx service install|uninstall [--dry-run]
//	vaultctx search [--db FILE] [--mode bm25|vector|hybrid] [-k N] [--json] [--explain] QUERY...
//	vaultctx status [--db FILE] [--json]
//	vaultctx scrub [--json] [FILE|-]
//	vaultctx model pull|info, vaultctx embed
//	vaultctx hooks install|uninstall|status, vaultctx doctor [--db FILE]
//	vaultctx eval, vaultctx bench, vaultctx version
//
// Results go to stdout; progress, warnings and errors go to stderr.
// Exit status: 0 on success, 1 on error, 2 on a usage error, 130 when
// interrupted by SIGINT or SIGTERM.
//
// Environment: VAULTCTX_CONFIG (config file), VAULTCTX_DB (index file),
// VAULTCTX_VAULT, VAULTCTX_MODEL, XDG_CONFIG_HOME, XDG_DATA_HOME,
// XDG_CACHE_HOME, XDG_STATE_HOME (the background refresh's log),
// VAULTCTX_LOG (debug log file).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"reflect"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"

	"github.com/vaultctx/vaultctx/core/config"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// sourceDir is the source tree this vaultctx was built from, set by
// scripts/install.sh with -ldflags "-X main.sourceDir=DIR" ("" when built
// otherwise), so that advice can name the installer by its full path
// (runInstaller).
var sourceDir = ""

// cli holds the global flags; the subcommands are added to it by run.
type cli struct {
	Config string `help:"Config file (default $VAULTCTX_CONFIG, else $XDG_CONFIG_HOME/vaultctx/config.toml)." type:"path" placeholder:"FILE"`
}

// command is one subcommand: a struct in its own cmd_*.go file with a Run
// method.
type command struct {
	name, help string
	cmd        any
	// graceful commands stop on SIGINT or SIGTERM by cancelling the
	// globals' context, and save their work (errInterrupted); the others
	// die at once, which is right for a read-only query and spares it
	// the signal set-up (a few tenths of a millisecond of its start).
	graceful bool
}

// commands returns every subcommand, in the order help lists them.
func commands() []command {
	return []command{
		{"index", "Index the vault (incremental by default).", &indexCmd{}, true},
		{"watch", "Keep the index fresh as notes change, until stopped.", &watchCmd{}, true},
		{"service", "Run watch as a user service (systemd on Linux, launchd on macOS).", &serviceCmd{}, false},
		{"search", "Search the index.", &searchCmd{}, false},
		{"status", "Show what the index holds.", &statusCmd{}, false},
		{"scrub", "Redact credentials from a file or stdin.", &scrubCmd{}, false},
		{"model", "Download or inspect an embedding model.", &modelCmd{}, true},
		{"embed", "Print the embeddings of texts.", &embedCmd{}, false},
		{"hooks", "Wire the Claude Code hooks into settings.json.", &hooksCmd{}, false},
		{"doctor", "Check the installation end to end; exits 1 when any check fails.", &doctorCmd{}, true},
		{"eval", "Measure retrieval quality (BEIR or a vault reference set).", &evalCmd{}, true},
		{"bench", "Measure indexing and search speed on a vault.", &benchCmd{}, true},
		{"version", "Print the version.", &versionCmd{}, false},
	}
}

// wanted returns the commands the parser for args needs: only the one args
// names, when they name one, else all of them (for help and for errors that
// list the commands). kong builds its model of every command it is given
// by reflection, about 2 ms for all of them; a search, which must start
// and exit in a few ms, pays only for its own.
func wanted(args []string) []command {
	all := commands()
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--config":
			i++ // its value
			continue
		case strings.HasPrefix(a, "-"):
			continue
		}
		for _, c := range all {
			if c.name == a {
				return []command{c}
			}
		}
		break
	}
	return all
}

// globals is passed to every Run method.
type globals struct {
	ConfigPath string
	Ctx        context.Context
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	cmds := wanted(args)
	ctx := context.Background()
	for _, cmd := range cmds {
		if cmd.graceful {
			var stop context.CancelFunc
			ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
			break
		}
	}

	var c cli
	opts := []kong.Option{
		kong.Name("vaultctx"),
		kong.Description("Hybrid BM25 + vector search over a markdown vault, for Claude Code hooks."),
		kong.UsageOnError(),
		kong.NamedMapper("path", pathMapper{}),
	}
	for _, cmd := range cmds {
		opts = append(opts, kong.DynamicCommand(cmd.name, cmd.help, "", cmd.cmd))
	}
	parser, err := kong.New(&c, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vaultctx:", err)
		return exitError
	}
	if len(args) == 0 {
		args = []string{"--help"} // kong prints the help and exits 0
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vaultctx:", err)
		if len(cmds) == 1 && cmds[0].name == "search" && strings.Contains(err.Error(), "unknown flag") {
			fmt.Fprintln(os.Stderr, "vaultctx: a query that starts with - goes after --: vaultctx search -- -Recurse")
		}
		return exitUsage
	}
	err = kctx.Run(&globals{ConfigPath: c.Config, Ctx: ctx})
	code, hint := exitCode(err)
	if err != nil && code != exitInterrupted && !errors.As(err, new(reportedError)) {
		fmt.Fprintln(os.Stderr, "vaultctx:", err)
		if hint != "" {
			name := ""
			if len(cmds) == 1 {
				name = cmds[0].name
			}
			fmt.Fprintln(os.Stderr, "vaultctx:", commandAdvice(ctx, c.Config, name, args, hint))
		}
	}
	return code
}

// pathMapper decodes the type:"path" flags (all strings) as kong's own path
// mapper does, made absolute, but with "~" read as the config file reads it
// ($HOME first, config.ExpandPath, where kong asks the user database), and
// an empty value is an error: kong read it as the current directory, so
// `index --vault ""` (an unset shell variable) indexed whatever folder the
// user stood in. The error says what to give instead: "." for a folder, a
// file for a FILE flag (./index.db for --db).
type pathMapper struct{}

// Decode implements kong.Mapper.
func (pathMapper) Decode(ctx *kong.DecodeContext, target reflect.Value) error {
	if target.Kind() != reflect.String {
		return fmt.Errorf("a path flag must be a string, not %s", target.Type())
	}
	var p string
	if err := ctx.Scan.PopValueInto("path", &p); err != nil {
		return err
	}
	if p == "" {
		// "." is true advice for a folder only: an index or config
		// file there would be refused as "is a directory".
		switch {
		case ctx.Value.Name == "db":
			return errors.New("empty path: the index is a file (./index.db for one in the current directory)")
		case ctx.Value.Tag.PlaceHolder == "FILE":
			return errors.New("empty path: give a file")
		}
		return errors.New("empty path (use . for the current directory)")
	}
	target.SetString(config.ExpandPath(p, os.Getenv)) // "~" as the config file reads it: $HOME first
	return nil
}
