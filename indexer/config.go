package main

import (
	"os"

	"github.com/vaultctx/vaultctx/core/config"
)

// loadConfig reads the config file (--config, $VAULTCTX_CONFIG or the XDG
// default) and the VAULTCTX_* environment. Flags are applied by each
// command on top of the result, so the precedence is flags, env, file,
// defaults.
func loadConfig(g *globals) (config.Config, error) {
	return config.Load(g.ConfigPath, os.Getenv)
}

// orDefault returns flag when it is set, else fallback.
func orDefault(flag, fallback string) string {
	if flag != "" {
		return flag
	}
	return fallback
}

// configPath is the config file used when --config is not given.
func configPath() string { return config.DefaultPath(os.Getenv) }
