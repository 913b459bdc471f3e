package posttool

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/internal/xdg"
)

// Environment variables read by OptionsFromEnv.
const (
	EnvThreshold = "VAULTCTX_POSTTOOLUSE_THRESHOLD" // bytes, default 4096
	EnvBudget    = "VAULTCTX_POSTTOOLUSE_BUDGET"    // tokens, default 2000
	EnvKeep      = "VAULTCTX_POSTTOOLUSE_KEEP"      // saved outputs kept, default 200
)

// OptionsFromEnv builds the PostToolUse hook's options from the
// environment: the output directory $XDG_CACHE_HOME/vaultctx/outputs
// (default ~/.cache/vaultctx/outputs) and the optional EnvThreshold,
// EnvBudget and EnvKeep overrides (positive integers). It returns an error
// for an unusable value or when no cache directory can be found.
func OptionsFromEnv(getenv func(string) string) (Options, error) {
	var o Options
	dir, err := xdg.CacheDir(getenv)
	if err != nil {
		return o, fmt.Errorf("posttooluse options: %w", err)
	}
	o.OutputDir = filepath.Join(dir, "outputs")
	for _, v := range []struct {
		name string
		dst  *int
	}{{EnvThreshold, &o.ThresholdBytes}, {EnvBudget, &o.BudgetTokens}, {EnvKeep, &o.KeepOutputs}} {
		s := getenv(v.name)
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return o, fmt.Errorf("posttooluse options: %s=%q is not a positive integer", v.name, s)
		}
		*v.dst = n
	}
	return o, nil
}

// OptionsFromConfig is OptionsFromEnv on top of the [hooks] table of
// the config file: output_threshold_bytes and output_budget_tokens apply
// unless the environment overrides them (precedence: env, file, defaults);
// posttooluse = false sets Disabled and output_passthrough Passthrough,
// which no environment variable overrides. A disabled hook needs no
// output directory, so its options come without one and without error.
func OptionsFromConfig(h config.Hooks, getenv func(string) string) (Options, error) {
	if !h.Enabled(config.HookPostToolUse) {
		return Options{Disabled: true}, nil
	}
	o, err := OptionsFromEnv(getenv)
	o.Passthrough = h.OutputPassthrough
	if err != nil {
		return o, err
	}
	if getenv(EnvThreshold) == "" && h.OutputThresholdBytes > 0 {
		o.ThresholdBytes = h.OutputThresholdBytes
	}
	if getenv(EnvBudget) == "" && h.OutputBudgetTokens > 0 {
		o.BudgetTokens = h.OutputBudgetTokens
	}
	return o, nil
}
