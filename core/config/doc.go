// Package config loads vaultctx's settings: a TOML file, VAULTCTX_*
// environment variables and built-in defaults, plus where vaultctx keeps its
// config file and index (the XDG base directories, resolved by
// core/internal/xdg).
//
// # Precedence
//
// Later sources win: defaults, then the config file, then the environment
// (VAULTCTX_VAULT, VAULTCTX_DB, VAULTCTX_MODEL), then command-line flags,
// which the caller applies to the Config that Load returns.
//
// # Where things live
//
//	config file  $VAULTCTX_CONFIG, else $XDG_CONFIG_HOME/vaultctx/config.toml
//	index        $VAULTCTX_DB, else the file's db, else $XDG_DATA_HOME/vaultctx/index.db
//
// The XDG variables default to ~/.config and ~/.local/share, and are ignored
// when not absolute, as the XDG Base Directory Specification requires. The
// home folder is $HOME, else the home folder in the user database; when
// neither is known Load returns an error wrapping xdg.ErrNoHome.
//
// # The file
//
// testdata/full.toml is a commented sample holding every key with its
// default value. Strictness is deliberate: an unknown key (a typo such as
// "exlude", a key in the wrong table, a key in the wrong case) and an
// out-of-range value are errors that name the key, because a setting that is
// silently ignored costs a user far more time than an error does. Paths may
// start with "~/"; relative paths in the file are relative to the file's
// folder.
//
// # Recording a pulled model
//
// RecordModel adds `model = "<dir>"` to the file (creating it when there is
// none) unless the file names a model already, keeping every other byte, so
// that `vaultctx model pull && vaultctx index` embeds with what was pulled.
//
// The package is pure Go and never touches the index.
package config
