package handoff

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/vaultctx/vaultctx/core/config"
)

// ErrNoBinary is returned by Binary when no vaultctx executable is found.
var ErrNoBinary = errors.New("vaultctx executable not found (beside this program or on PATH)")

// Binary returns the vaultctx executable the background refresh runs: the
// one beside the running program (the installer puts the hooks and
// vaultctx in one folder), else the first on PATH. Errors: ErrNoBinary.
func Binary() (string, error) {
	name := "vaultctx"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && p != self {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", ErrNoBinary
}

// IndexCommand is the command line of a background refresh of cfg's vault
// by the vaultctx executable bin: `bin [--config FILE] index --background
// --vault VAULT --db DB`, with the vault and index made absolute (the
// runner inherits the environment, so VAULTCTX_MODEL and the rest carry
// over).
func IndexCommand(bin string, cfg config.Config) ([]string, error) {
	vault, err := filepath.Abs(cfg.Vault)
	if err != nil {
		return nil, fmt.Errorf("refresh command: %w", err)
	}
	db, err := filepath.Abs(cfg.DB)
	if err != nil {
		return nil, fmt.Errorf("refresh command: %w", err)
	}
	argv := []string{bin}
	if cfg.File != "" {
		argv = append(argv, "--config", cfg.File)
	}
	return append(argv, "index", "--background", "--vault", vault, "--db", db), nil
}

// Index is Request of a background refresh of cfg's vault (IndexCommand)
// by bin ("" = Binary()), logged to LogPath(getenv). Errors: as Request,
// ErrNoBinary, and a config without a vault.
func Index(cfg config.Config, bin string, getenv func(string) string) error {
	if cfg.Vault == "" {
		return errors.New("refresh request: no vault configured")
	}
	if bin == "" {
		b, err := Binary()
		if err != nil {
			return fmt.Errorf("refresh request: %w", err)
		}
		bin = b
	}
	argv, err := IndexCommand(bin, cfg)
	if err != nil {
		return err
	}
	log, err := LogPath(getenv)
	if err != nil {
		return err
	}
	db, _ := filepath.Abs(cfg.DB)
	return Request(db, argv, log)
}
