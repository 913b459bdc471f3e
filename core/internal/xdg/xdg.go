package xdg

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
)

// App is the folder name of vaultctx under each base directory.
const App = "vaultctx"

// ErrNoHome is returned (wrapped, naming the XDG variable) when a folder
// cannot be resolved: the XDG variable is unset or relative and no home
// folder is set either.
var ErrNoHome = errors.New("no home folder: HOME is unset")

// Base directory variables and their defaults relative to the home folder.
const (
	configHome = "XDG_CONFIG_HOME"
	dataHome   = "XDG_DATA_HOME"
	cacheHome  = "XDG_CACHE_HOME"
	stateHome  = "XDG_STATE_HOME"
)

// ConfigDir returns $XDG_CONFIG_HOME/vaultctx, default ~/.config/vaultctx:
// the config file. The error wraps ErrNoHome.
func ConfigDir(getenv func(string) string) (string, error) {
	return dir(getenv, configHome, ".config")
}

// DataDir returns $XDG_DATA_HOME/vaultctx, default ~/.local/share/vaultctx:
// the index and pulled models. The error wraps ErrNoHome.
func DataDir(getenv func(string) string) (string, error) {
	return dir(getenv, dataHome, filepath.Join(".local", "share"))
}

// CacheDir returns $XDG_CACHE_HOME/vaultctx, default ~/.cache/vaultctx:
// files that can be rebuilt at any time (tokenizer and digest caches, saved
// tool outputs). The error wraps ErrNoHome.
func CacheDir(getenv func(string) string) (string, error) {
	return dir(getenv, cacheHome, ".cache")
}

// StateDir returns $XDG_STATE_HOME/vaultctx, default
// ~/.local/state/vaultctx: state worth keeping between runs (session
// de-duplication files). The error wraps ErrNoHome.
func StateDir(getenv func(string) string) (string, error) {
	return dir(getenv, stateHome, filepath.Join(".local", "state"))
}

// Home returns the home folder: $HOME, else on Windows $USERPROFILE. It
// returns ErrNoHome when neither is set.
func Home(getenv func(string) string) (string, error) {
	return home(getenv, runtime.GOOS)
}

func home(getenv func(string) string, goos string) (string, error) {
	if h := getenv("HOME"); h != "" {
		return h, nil
	}
	if goos == "windows" {
		if h := getenv("USERPROFILE"); h != "" {
			return h, nil
		}
	}
	return "", ErrNoHome
}

// dir is $env/vaultctx when $env is absolute, else ~/def/vaultctx.
func dir(getenv func(string) string, env, def string) (string, error) {
	if base := getenv(env); base != "" && filepath.IsAbs(base) {
		return filepath.Join(base, App), nil
	}
	h, err := Home(getenv)
	if err != nil {
		return "", fmt.Errorf("%s unset or relative: %w", env, err)
	}
	return filepath.Join(h, def, App), nil
}
