package settings

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Binaries lists our three hook binaries in the template's order.
var Binaries = []string{UserPromptBinary, PreToolUseBinary, PostToolUseBinary}

// HookName returns the short name of a hook binary: its name without the
// "vaultctx-" prefix, e.g. "posttooluse" for "vaultctx-posttooluse". The
// short names are what `vaultctx hooks install --only` and the installer's
// --no-<name> flags take, and the keys of the config's on/off switches
// (config.HookNames).
func HookName(binary string) string {
	return strings.TrimPrefix(binary, "vaultctx-")
}

// hookAliases are the shorter spellings ParseHookNames also accepts.
var hookAliases = map[string]string{
	"prompt":   HookName(UserPromptBinary),
	"pretool":  HookName(PreToolUseBinary),
	"posttool": HookName(PostToolUseBinary),
}

// ErrUnknownHook is returned (wrapped) by ParseHookNames for a name that is
// not one of our hooks; the message names it and lists the valid names.
var ErrUnknownHook = errors.New("unknown hook")

// ParseHookNames reads a comma-separated list of hook names, such as
// "userprompt,pretooluse": each the HookName of one of Binaries or its
// alias prompt, pretool or posttool, compared case-insensitively, with
// spaces around names ignored. It returns the short names in list order,
// each once. An empty list or an empty name is an error, and so is an
// unknown name (ErrUnknownHook), e.g.
// `unknown hook "posttol": want userprompt, pretooluse or posttooluse (or prompt, pretool, posttool)`.
func ParseHookNames(list string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(list, ",") {
		n := strings.ToLower(strings.TrimSpace(f))
		if a, ok := hookAliases[n]; ok {
			n = a
		}
		switch {
		case n == "":
			return nil, fmt.Errorf("hook names %q: an empty name; want a comma-separated list such as userprompt,pretooluse", list)
		case !slices.ContainsFunc(Binaries, func(b string) bool { return HookName(b) == n }):
			return nil, fmt.Errorf("%w %q: want userprompt, pretooluse or posttooluse (or prompt, pretool, posttool)", ErrUnknownHook, strings.TrimSpace(f))
		case !slices.Contains(out, n):
			out = append(out, n)
		}
	}
	return out, nil
}

// Select returns a Plan holding only the groups of p whose binary's
// HookName is in names, in p's order. The result may have no groups;
// Merge then takes every entry of ours out, as Remove does.
func (p *Plan) Select(names []string) *Plan {
	out := &Plan{}
	for _, g := range p.Groups {
		if slices.Contains(names, HookName(g.Handler.Binary)) {
			out.Groups = append(out.Groups, g)
		}
	}
	return out
}
