package session

// This file holds the XDG base directories of the hooks until the shared
// XDG owner lands; callers then switch to it.

import (
	"fmt"
	"path/filepath"
)

// StateDir returns $XDG_STATE_HOME/vaultctx/<sub> (default
// ~/.local/state/vaultctx/<sub>), using getenv for the environment. It
// returns an error when neither XDG_STATE_HOME nor HOME is set.
func StateDir(getenv func(string) string, sub string) (string, error) {
	return xdgDir(getenv, "XDG_STATE_HOME", filepath.Join(".local", "state"), sub)
}

// CacheDir returns $XDG_CACHE_HOME/vaultctx/<sub> (default
// ~/.cache/vaultctx/<sub>), using getenv for the environment. It returns an
// error when neither XDG_CACHE_HOME nor HOME is set.
func CacheDir(getenv func(string) string, sub string) (string, error) {
	return xdgDir(getenv, "XDG_CACHE_HOME", ".cache", sub)
}

func xdgDir(getenv func(string) string, env, homeRel, sub string) (string, error) {
	// The XDG spec says relative values are invalid and must be ignored.
	if base := getenv(env); base != "" && filepath.IsAbs(base) {
		return filepath.Join(base, "vaultctx", sub), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", fmt.Errorf("%s and HOME are unset", env)
	}
	return filepath.Join(home, homeRel, "vaultctx", sub), nil
}
