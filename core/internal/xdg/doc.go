// Package xdg resolves vaultctx's folders under the XDG Base Directory
// Specification (https://specifications.freedesktop.org/basedir-spec/):
//
//	ConfigDir  $XDG_CONFIG_HOME/vaultctx, default ~/.config/vaultctx
//	DataDir    $XDG_DATA_HOME/vaultctx,   default ~/.local/share/vaultctx
//	CacheDir   $XDG_CACHE_HOME/vaultctx,  default ~/.cache/vaultctx
//	StateDir   $XDG_STATE_HOME/vaultctx,  default ~/.local/state/vaultctx
//
// It is the one place that reads these variables. Every function takes the
// environment as a getenv function (os.Getenv outside tests) and is pure
// otherwise: it reads no file and creates no folder.
//
// Rules, as the specification states them: an XDG variable that is unset,
// empty or not an absolute path is ignored and the default under the home
// folder is used. The home folder is $HOME (on Windows, $USERPROFILE when
// HOME is unset, as os.UserHomeDir does). When neither the variable nor a
// home folder is known the functions return ErrNoHome; they never fall back
// to the working folder.
package xdg
