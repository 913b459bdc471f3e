package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"text/tabwriter"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/embed/hub"
)

// modelCmd is `vaultctx model pull|info`.
type modelCmd struct {
	Pull modelPullCmd `cmd:"" help:"Download a Model2Vec model from the Hugging Face hub."`
	Info modelInfoCmd `cmd:"" help:"Describe a model directory."`
}

// modelPullCmd is `vaultctx model pull`: it downloads config.json,
// tokenizer.json and model.safetensors, resuming broken downloads and
// checking digests, and prints the install directory.
type modelPullCmd struct {
	Name     string `help:"Hugging Face model to download." default:"minishlab/potion-base-8M"`
	Revision string `help:"Commit SHA or branch (default: the pinned revision for the default model, else main)." placeholder:"SHA"`
	Dir      string `help:"Install directory (default $XDG_DATA_HOME/vaultctx/models/<name>)." type:"path" placeholder:"DIR"`
	BaseURL  string `name:"base-url" help:"Model hub base URL." default:"https://huggingface.co" hidden:""`
	JSON     bool   `help:"Print the result as JSON."`
}

// Run executes the command.
func (c *modelPullCmd) Run(g *globals) error {
	ctx := globalsCtx(g)
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	dir, err := hub.Pull(ctx, hub.PullOptions{
		Name: c.Name, Revision: c.Revision, Dir: c.Dir, BaseURL: c.BaseURL, Logger: logger,
	})
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return fmt.Errorf("model pull: %w", err)
	}
	if c.JSON {
		return json.NewEncoder(os.Stdout).Encode(map[string]string{"name": c.Name, "dir": dir})
	}
	fmt.Fprintln(os.Stdout, dir)
	return nil
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
