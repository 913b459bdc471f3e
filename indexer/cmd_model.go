package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/settings"
)

// modelCmd is `vaultctx model pull|info`.
type modelCmd struct {
	Pull modelPullCmd `cmd:"" help:"Download a Model2Vec model from the Hugging Face hub."`
	Info modelInfoCmd `cmd:"" help:"Describe a model directory."`
}

// modelPullCmd is `vaultctx model pull`: it downloads config.json,
// tokenizer.json and model.safetensors, resuming broken downloads and
// checking digests, records the model in the config file (unless the file
// names a model already, or --no-config) so that `vaultctx index` embeds
// with it, and prints the install directory on stdout; what it did to the
// config goes to stderr.
type modelPullCmd struct {
	Name     string `help:"Hugging Face model to download." default:"minishlab/potion-base-8M"`
	Revision string `help:"Commit SHA or branch (default: the pinned revision for the default model, else main)." placeholder:"SHA"`
	Dir      string `help:"Install directory (default $XDG_DATA_HOME/vaultctx/models/<name>)." type:"path" placeholder:"DIR"`
	BaseURL  string `name:"base-url" help:"Model hub base URL." default:"https://huggingface.co" hidden:""`
	NoConfig bool   `name:"no-config" help:"Do not record the model in the config file (by default a config that names no model gets model = DIR, and one is created if there is none)."`
	JSON     bool   `help:"Print the result as JSON."`
}

// Run executes the command.
func (c *modelPullCmd) Run(g *globals) error {
	ctx := globalsCtx(g)
	dir, err := c.download(ctx)
	if err != nil {
		return err
	}
	out := map[string]string{"name": c.Name, "dir": dir}
	var recErr error
	if !c.NoConfig {
		var rec config.ModelRecord
		rec, recErr = config.RecordModel(g.ConfigPath, dir, os.Getenv)
		if recErr == nil {
			reportRecord(os.Stderr, rec, dir, os.Getenv(config.EnvModel))
			if rec.Model == dir {
				out["config"] = rec.File
			}
		}
	}
	if c.JSON {
		if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(os.Stdout, dir)
	}
	if recErr != nil {
		// Without the record `vaultctx index` would stay BM25-only, so a
		// retry such as `model pull && index` must not go on.
		return fmt.Errorf("model pull: the model is in %s, but it was not recorded in the config: %w (pass --model %s to index, or --no-config to skip this step)",
			dir, recErr, settings.ShellQuote(dir))
	}
	return nil
}

// pullHelper is the program that downloads for `vaultctx model pull`
// (package pull): the network code lives there, so that no other command,
// a search above all, links net/http and crypto/tls and pays for their
// package initialisation and pages at every start.
const pullHelper = "vaultctx-pull"

// download runs pullHelper with c's flags, its stderr (progress, errors)
// passed through, and returns the install directory it prints. Errors:
// errInterrupted when it was interrupted, a reportedError when it failed
// (it said why), and an error that says how to install it when it is
// neither beside this executable nor on PATH.
func (c *modelPullCmd) download(ctx context.Context) (string, error) {
	helper, err := companion(pullHelper)
	if err != nil {
		return "", fmt.Errorf("model pull: %w", err)
	}
	args := []string{"--name", c.Name, "--revision", c.Revision, "--dir", c.Dir}
	if c.BaseURL != "" {
		args = append(args, "--base-url", c.BaseURL)
	}
	cmd := exec.CommandContext(ctx, helper, args...)
	cmd.Stdin, cmd.Stderr = nil, os.Stderr
	// SIGINT at a terminal reaches the helper too and it stops at once;
	// a cancelled context (SIGTERM to vaultctx alone) passes it on.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	stopWithParent(cmd) // a vaultctx killed with -9 leaves no download running
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil || errors.As(err, &exit) && exit.ExitCode() == exitInterrupted:
		return "", errInterrupted
	case errors.As(err, &exit) && (exit.ExitCode() == exitError || exit.ExitCode() == exitUsage):
		return "", reportedError{exit.ExitCode()} // it said why, in vaultctx's words
	case errors.As(err, &exit):
		// Killed (the OOM killer, kill -9) or some other failure that
		// printed nothing of ours.
		return "", fmt.Errorf("model pull: %s failed (%v); run `vaultctx model pull` again to resume", helper, exit)
	case err != nil:
		return "", fmt.Errorf("model pull: run %s: %w", helper, err)
	}
	dir := strings.TrimSuffix(string(out), "\n")
	if dir == "" || strings.Contains(dir, "\n") {
		return "", fmt.Errorf("model pull: %s printed %q, not one directory", helper, out)
	}
	return dir, nil
}

// companion returns the path of the vaultctx program name: beside this
// executable (symlinks resolved), where scripts/install.sh puts them all,
// else the first on PATH.
func companion(name string) (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s, which downloads models, is neither beside this vaultctx nor on PATH: %s to install both, or build it with `go build -o DIR/%s ./pull` in the source tree", name, runInstaller(""), name)
}

// reportRecord says on w what RecordModel did with the config file, and
// when something else decides the model: another model the file names, or
// $VAULTCTX_MODEL (env), which overrides the file.
func reportRecord(w io.Writer, rec config.ModelRecord, dir, env string) {
	switch {
	case rec.Model != dir:
		fmt.Fprintf(w, "vaultctx: %s names another model (%s) and was left as it is; to use this one, set model = %q there, or pass --model %s\n",
			rec.File, rec.Model, dir, settings.ShellQuote(dir))
	case rec.Created:
		fmt.Fprintf(w, "vaultctx: wrote %s with model = %q; `vaultctx index` embeds with it\n", rec.File, dir)
	case rec.Written:
		fmt.Fprintf(w, "vaultctx: recorded model = %q in %s; `vaultctx index` embeds with it\n", dir, rec.File)
	}
	if env != "" && env != dir {
		fmt.Fprintf(w, "vaultctx: %s=%s overrides the config's model; unset it to use %s\n", config.EnvModel, env, dir)
	}
}

// modelInfoCmd is `vaultctx model info [DIR]`: name, dimensions, vocabulary
// size, dtype, normalisation and content hash of a model directory.
type modelInfoCmd struct {
	Dir  string `arg:"" optional:"" type:"path" help:"Model directory (default: model in the config or $VAULTCTX_MODEL, else the default pull directory)."`
	JSON bool   `help:"Print the result as JSON."`
}

// modelInfo is the JSON shape of `model info --json`.
type modelInfo struct {
	Name      string `json:"name"`
	Dir       string `json:"dir"`
	Dims      int    `json:"dims"`
	VocabSize int    `json:"vocab_size"`
	DType     string `json:"dtype"`
	Normalize bool   `json:"normalize"`
	Quantized bool   `json:"vocab_quantized"`
	Hash      string `json:"hash"`
}

// Run executes the command.
func (c *modelInfoCmd) Run(g *globals) error {
	m, err := openModel(g, c.Dir)
	if err != nil {
		return err
	}
	defer m.Close()
	hash, err := m.Hash()
	if err != nil {
		return fmt.Errorf("model info: %w", err)
	}
	info := modelInfo{Name: m.Name(), Dir: m.Dir(), Dims: m.Dim(), VocabSize: m.VocabSize(), DType: m.DType(),
		Normalize: m.Normalize(), Quantized: m.Quantized(), Hash: hash}
	return writeModelInfo(os.Stdout, info, c.JSON)
}

func writeModelInfo(w io.Writer, info modelInfo, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(info)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "name\t%s\n", info.Name)
	fmt.Fprintf(tw, "dir\t%s\n", info.Dir)
	fmt.Fprintf(tw, "dims\t%d\n", info.Dims)
	fmt.Fprintf(tw, "vocab size\t%d\n", info.VocabSize)
	fmt.Fprintf(tw, "dtype\t%s\n", info.DType)
	fmt.Fprintf(tw, "normalize\t%t\n", info.Normalize)
	fmt.Fprintf(tw, "vocab quantized\t%t\n", info.Quantized)
	fmt.Fprintf(tw, "hash\t%s\n", info.Hash)
	return tw.Flush()
}

// modelDir is the model directory a model command uses: the flag, else
// the config's model (the file, overridden by $VAULTCTX_MODEL), else the
// default pull directory.
func modelDir(g *globals, flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	cfg, err := loadConfig(g)
	if err != nil {
		return "", err
	}
	if cfg.Model != "" {
		return cfg.Model, nil
	}
	return embed.DefaultDir(os.Getenv, embed.DefaultModel)
}

// openModel opens the model directory chosen by modelDir; a missing model
// is a usage error that says how to get one.
func openModel(g *globals, flag string) (*embed.Model, error) {
	dir, err := modelDir(g, flag)
	if err != nil {
		return nil, err
	}
	m, err := embed.Open(dir)
	if errors.Is(err, embed.ErrNotModel) || errors.Is(err, os.ErrNotExist) {
		return nil, usageError{fmt.Sprintf("no model at %s: run `vaultctx model pull` or pass --model DIR (%v)", dir, err)}
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// globalsCtx is g.Ctx, or Background when a test builds globals by hand.
func globalsCtx(g *globals) context.Context {
	if g != nil && g.Ctx != nil {
		return g.Ctx
	}
	return context.Background()
}
