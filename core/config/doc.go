// Package config loads vaultctx's configuration: defaults, then a TOML file,
// then VAULTCTX_* environment variables; command-line flags are applied by
// the caller on top (precedence: flags, env, file, defaults).
//
// The file is $VAULTCTX_CONFIG, else $XDG_CONFIG_HOME/vaultctx/config.toml
// (XDG default ~/.config). The index is $VAULTCTX_DB, else the file's `db`,
// else $XDG_DATA_HOME/vaultctx/index.db (XDG default ~/.local/share).
// An unknown key in the file is an error that names the key.
package config
