package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
)

// embedCmd is `vaultctx embed --model DIR [--json] TEXT...`: it prints one
// embedding per text, as space-separated numbers on one line, or as JSON.
// A lone "-" reads one text per line from stdin.
type embedCmd struct {
	Model string   `help:"Model directory (default: model in the config or $VAULTCTX_MODEL, else the default pull directory)." type:"path" placeholder:"DIR"`
	JSON  bool     `help:"Print {model, dims, embeddings} as JSON."`
	Texts []string `arg:"" help:"Texts to embed; '-' reads one text per line from stdin."`
}

// Run executes the command.
func (c *embedCmd) Run(g *globals) error {
	texts := c.Texts
	if len(texts) == 1 && texts[0] == "-" {
		texts = nil
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			texts = append(texts, sc.Text())
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("embed: read stdin: %w", err)
		}
	}
	m, err := openModel(g, c.Model)
	if err != nil {
		return err
	}
	defer m.Close()
	var vecs [][]float32
	if len(texts) == 1 {
		v, err := m.Encode(texts[0])
		if err != nil {
			return fmt.Errorf("embed: %w", err)
		}
		vecs = [][]float32{v}
	} else if vecs, err = m.EncodeBatch(globalsCtx(g), texts); err != nil {
		if globalsCtx(g).Err() != nil {
			return errInterrupted
		}
		return fmt.Errorf("embed: %w", err)
	}
	// The zero vector is what a text without a word of the vocabulary
	// embeds to; say so, since search treats it as no vector at all.
	for i, v := range vecs {
		if !slices.ContainsFunc(v, func(x float32) bool { return x != 0 }) {
			fmt.Fprintf(os.Stderr, "vaultctx: text %d (%.40q) has no token in the model's vocabulary: its embedding is the zero vector, which vector search ignores\n", i+1, texts[i])
		}
	}
	w := bufio.NewWriter(os.Stdout)
	if c.JSON {
		if err := json.NewEncoder(w).Encode(embedOutput{Model: m.Name(), Dims: m.Dim(), Embeddings: vecs}); err != nil {
			return err
		}
		return w.Flush()
	}
	var buf []byte
	for _, v := range vecs {
		buf = buf[:0]
		for i, x := range v {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendFloat(buf, float64(x), 'g', -1, 32)
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
	return w.Flush()
}

// embedOutput is the JSON shape of `embed --json`.
type embedOutput struct {
	Model      string      `json:"model"`
	Dims       int         `json:"dims"`
	Embeddings [][]float32 `json:"embeddings"`
}
