// Command vaultctx-pull downloads a Model2Vec model from the Hugging Face
// hub into a directory (core/embed/hub: resumable transfers, pinned
// SHA-256 digests, an atomic install). `vaultctx model pull` runs it and
// records the model in the config; it is not meant to be run by hand.
//
// Usage:
//
//	vaultctx-pull [--name REPO] [--revision SHA] [--dir DIR] [--base-url URL]
//
// It prints the install directory on stdout and its progress and errors
// on stderr. Exit status: 0 on success, 1 on error, 2 on a usage error,
// 130 when interrupted by SIGINT or SIGTERM (a second pull resumes).
//
// The download is a program of its own, installed beside vaultctx, as git
// keeps its HTTP transport in git-remote-https: net/http and crypto/tls
// linked into vaultctx cost every command their package initialisation
// and pages, about 0.2 ms of an 8 ms search (issue 17).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/embed/hub"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command with its streams; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vaultctx-pull", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opt hub.PullOptions
	fs.StringVar(&opt.Name, "name", embed.DefaultModel, "Hugging Face model to download")
	fs.StringVar(&opt.Revision, "revision", "", "commit SHA or branch (default: the pinned revision for the default model, else main)")
	fs.StringVar(&opt.Dir, "dir", "", "install directory (default $XDG_DATA_HOME/vaultctx/models/<name>)")
	fs.StringVar(&opt.BaseURL, "base-url", "", "model hub base URL (default https://huggingface.co)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "vaultctx-pull: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	opt.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	dir, err := hub.Pull(ctx, opt)
	switch {
	case err != nil && ctx.Err() != nil:
		fmt.Fprintln(stderr, "vaultctx: model pull: interrupted; run `vaultctx model pull` again to resume the download")
		return 130
	case err != nil:
		fmt.Fprintf(stderr, "vaultctx: model pull: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, dir)
	return 0
}
