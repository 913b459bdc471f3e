// Command vaultctx indexes an Obsidian-style markdown vault into one SQLite
// file and searches it with BM25, vector KNN, or both fused with RRF.
//
// Usage:
//
//	vaultctx index [--vault DIR] [--db FILE] [--full] [--json]
//	vaultctx search [--db FILE] [--mode bm25|vector|hybrid] [-k N] [--json] [--explain] QUERY...
//	vaultctx status [--db FILE] [--json]
//	vaultctx scrub [--json] [FILE|-]
//	vaultctx model pull|info, vaultctx embed
//	vaultctx hooks install|uninstall|status, vaultctx doctor
//	vaultctx eval, vaultctx bench, vaultctx version
//
// Results go to stdout; progress, warnings and errors go to stderr.
// Exit status: 0 on success, 1 on error, 2 on a usage error, 130 when
// interrupted by SIGINT or SIGTERM.
//
// Environment: VAULTCTX_CONFIG (config file), VAULTCTX_DB (index file),
// VAULTCTX_VAULT, VAULTCTX_MODEL, XDG_CONFIG_HOME, XDG_DATA_HOME,
// XDG_CACHE_HOME, VAULTCTX_LOG (debug log file).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/alecthomas/kong"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// cli is the whole command line: one struct per subcommand, each in its own
// cmd_*.go file with a Run method.
type cli struct {
	Config string `help:"Config file (default $VAULTCTX_CONFIG, else $XDG_CONFIG_HOME/vaultctx/config.toml)." type:"path" placeholder:"FILE"`

	Index   indexCmd   `cmd:"" help:"Index the vault (incremental by default)."`
	Search  searchCmd  `cmd:"" help:"Search the index."`
	Status  statusCmd  `cmd:"" help:"Show what the index holds."`
	Scrub   scrubCmd   `cmd:"" help:"Redact credentials from a file or stdin."`
	Model   modelCmd   `cmd:"" help:"Download or inspect an embedding model."`
	Embed   embedCmd   `cmd:"" help:"Print the embeddings of texts."`
	Hooks   hooksCmd   `cmd:"" help:"Wire the Claude Code hooks into settings.json."`
	Doctor  doctorCmd  `cmd:"" help:"Check the installation end to end."`
	Eval    evalCmd    `cmd:"" help:"Measure retrieval quality (BEIR or a vault reference set)."`
	Bench   benchCmd   `cmd:"" help:"Measure indexing and search speed on a vault."`
	Version versionCmd `cmd:"" help:"Print the version."`
}

// globals is passed to every Run method.
type globals struct {
	ConfigPath string
	Ctx        context.Context
}

// errInterrupted is returned by a command that stopped early on SIGINT or
// SIGTERM after saving its work; main maps it to exit status 130.
var errInterrupted = errors.New("interrupted")

// usageError is an error in how the command was called; its text says what
// to do next. main maps it to exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var c cli
	parser, err := kong.New(&c,
		kong.Name("vaultctx"),
		kong.Description("Hybrid BM25 + vector search over a markdown vault, for Claude Code hooks."),
		kong.UsageOnError(),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vaultctx:", err)
		return 1
	}
	if len(args) == 0 {
		args = []string{"--help"} // kong prints the help and exits 0
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vaultctx:", err)
		return 2
	}
	err = kctx.Run(&globals{ConfigPath: c.Config, Ctx: ctx})
	return exitCode(err)
}

// exitCode maps a command's error to the process exit status and prints it.
func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errInterrupted):
		return 130
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "vaultctx:", err)
		return 2
	default:
		fmt.Fprintln(os.Stderr, "vaultctx:", err)
		return 1
	}
}
