// Package service sets `vaultctx watch` up as a per-user service, for users
// who want the index followed always: a systemd user unit on Linux
// ($XDG_CONFIG_HOME/systemd/user/vaultctx-watch.service) and a launchd
// agent on macOS (~/Library/LaunchAgents/io.github.vaultctx.watch.plist).
//
// Make renders the file from its template (systemd.service.tmpl,
// launchd.plist.tmpl) with the absolute paths of the vaultctx executable,
// the vault, the index and the config, so the service depends on no shell
// environment. Install writes it atomically and Activate runs the
// manager's commands to load and start it (Plan.Start); Uninstall stops
// and removes it. Nothing here runs unless asked: the CLI's --dry-run
// prints the file and the commands instead.
package service
