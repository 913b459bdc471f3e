package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"

	"github.com/vaultctx/vaultctx/core/scrub"
)

// scrubCmd is `vaultctx scrub [--json] [FILE|-]`: it reads a file (or stdin
// for "-" or no argument) and prints it with every credential replaced by
// [REDACTED:<rule-id>], or with --json the findings as a JSON array of
// {rule, start, end} byte offsets into the input. The secret itself is never
// printed. A summary naming each rule and its count goes to stderr.
type scrubCmd struct {
	JSON bool   `name:"json" help:"Print the findings as a JSON array of {rule, start, end} byte offsets instead of the scrubbed text."`
	File string `arg:"" optional:"" default:"-" help:"File to scrub; - or nothing reads stdin." placeholder:"FILE|-"`

	stdin  io.Reader // tests set these; nil means os.Stdin, os.Stdout, os.Stderr
	stdout io.Writer
	stderr io.Writer
}

// scrubFinding is the JSON form of one finding.
type scrubFinding struct {
	Rule  string `json:"rule"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// Run scrubs the input and prints the result.
func (c *scrubCmd) Run(g *globals) error {
	in, out, errw := c.stdin, c.stdout, c.stderr
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	if errw == nil {
		errw = os.Stderr
	}
	name := c.File
	if name != "-" && name != "" {
		f, err := os.Open(name)
		if err != nil {
			return usageError{msg: fmt.Sprintf("scrub: %v: give a readable file, or - to read stdin", err)}
		}
		defer f.Close()
		in = f
	} else {
		name = "stdin"
	}
	b, err := io.ReadAll(in)
	if err != nil {
		return fmt.Errorf("scrub: read %s: %w", name, err)
	}
	text, fs := scrub.Default().Scrub(string(b))

	w := bufio.NewWriter(out)
	if c.JSON {
		list := make([]scrubFinding, len(fs))
		for i, f := range fs {
			list[i] = scrubFinding{Rule: f.Rule, Start: f.Start, End: f.End}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(list); err != nil {
			return fmt.Errorf("scrub: write: %w", err)
		}
	} else if _, err := w.WriteString(text); err != nil {
		return fmt.Errorf("scrub: write: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("scrub: write: %w", err)
	}
	if len(fs) > 0 {
		log := slog.New(slog.NewTextHandler(errw, &slog.HandlerOptions{Level: slog.LevelInfo}))
		log.Info("redacted", "input", name, "count", len(fs), "rules", ruleCounts(fs))
	}
	return nil
}

// ruleCounts formats findings per rule as "rule=n rule=n", sorted by rule.
func ruleCounts(fs []scrub.Finding) string {
	counts := map[string]int{}
	for _, f := range fs {
		counts[f.Rule]++
	}
	rules := make([]string, 0, len(counts))
	for r := range counts {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	parts := make([]string, len(rules))
	for i, r := range rules {
		parts[i] = fmt.Sprintf("%s=%d", r, counts[r])
	}
	return strings.Join(parts, " ")
}
