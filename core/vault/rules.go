package vault

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// DefaultMaxFileBytes is the size cap used when Rules.MaxFileBytes is zero or
// negative: 5 MiB. Larger files are skipped, not truncated.
const DefaultMaxFileBytes int64 = 5 * 1024 * 1024

// DefaultExtensions returns the extensions used when Rules.Extensions is
// empty: [".md"]. It returns a new slice on each call.
func DefaultExtensions() []string { return []string{".md"} }

// Rules say which files under a vault root are notes. The zero value is
// usable: every ".md" file outside dot-folders, up to DefaultMaxFileBytes.
// See the package documentation for the matching rules.
type Rules struct {
	// Include is the folder allowlist, as vault-relative rules. Empty means
	// the whole vault.
	Include []string
	// Exclude is the folder denylist, as vault-relative rules. Dot-folders
	// are excluded whatever it says.
	Exclude []string
	// Extensions are the file name endings of notes, with or without the
	// leading dot, compared case-insensitively. Empty means [".md"].
	Extensions []string
	// MaxFileBytes is the largest file, in bytes, that is indexed. Zero or
	// negative means DefaultMaxFileBytes.
	MaxFileBytes int64
}

// ErrBadRule is returned (wrapped) by Rules.Validate and Walk when an include
// or exclude rule or an extension cannot be used; the message names which.
var ErrBadRule = errors.New("bad rule")

// Validate reports the first unusable rule: an include or exclude rule that
// names no folder ("", "/", "**"), climbs out of the vault (".."), or holds a
// malformed pattern; or an extension that is empty or holds a "/". The error
// wraps ErrBadRule and names the list and index, e.g.
// `exclude[1] "../x": ".." leaves the vault: bad rule`.
func (r Rules) Validate() error {
	_, err := r.compile()
	return err
}

// Match reports whether relPath, a vault-relative file path with forward
// slashes, is a note under these rules: the extension, dot-component, include
// and exclude checks of Walk, without touching the disk. relPath is
// normalised to NFC first; a leading "./" or "/" is ignored. Invalid rules
// never match (call Validate to find them).
func (r Rules) Match(relPath string) bool {
	c, _ := r.compile()
	comps := splitPath(nfc(relPath))
	if len(comps) == 0 || !c.hasExt(comps[len(comps)-1]) {
		return false
	}
	included := len(c.include) == 0
	for i := range comps {
		p := comps[:i+1]
		if c.hidden(p) || c.excluded(p) {
			return false
		}
		included = included || c.includes(p)
	}
	return included
}

// MatchDir reports whether Walk would walk into relDir, a vault-relative
// folder path with forward slashes: no component is a dot-folder (unless a
// literal include rule spells it out) or excluded, and each is included
// or could hold an included folder below it. "" and "." are the root,
// always walked. A watcher (core/watch) watches exactly these folders.
// Invalid rules never match, as in Match.
func (r Rules) MatchDir(relDir string) bool {
	c, _ := r.compile()
	comps := splitPath(nfc(relDir))
	included := len(c.include) == 0
	for i := range comps {
		p := comps[:i+1]
		if c.hidden(p) || c.excluded(p) {
			return false
		}
		included = included || c.includes(p)
		if !included && !c.mayIncludeBelow(p) {
			return false
		}
	}
	return true
}

// maxBytes returns the effective size cap.
func (r Rules) maxBytes() int64 {
	if r.MaxFileBytes <= 0 {
		return DefaultMaxFileBytes
	}
	return r.MaxFileBytes
}

// compiled is Rules ready for matching. Rules that failed to compile are
// left out, so an invalid rule never matches.
type compiled struct {
	exts    []string // lower-case, with the leading dot
	include []rule
	exclude []rule
	max     int64
}

// rule is one include or exclude rule split into NFC path components. A
// component is a literal name, a path.Match pattern, or "**" (any number of
// components, never last: a trailing "**" is dropped at compile time).
type rule struct {
	parts   []string
	glob    []bool // glob[i]: parts[i] is a pattern (or "**")
	literal bool   // no component is a pattern
}

func (r Rules) compile() (*compiled, error) {
	c := &compiled{max: r.maxBytes()}
	var first error
	keep := func(err error) {
		if first == nil {
			first = err
		}
	}
	exts := r.Extensions
	if len(exts) == 0 {
		exts = DefaultExtensions()
	}
	for i, e := range exts {
		n, err := NormalizeExtension(e)
		if err != nil {
			keep(fmt.Errorf("extensions[%d] %q: %w", i, e, err))
			continue
		}
		c.exts = append(c.exts, n)
	}
	for i, s := range r.Include {
		ru, err := compileRule(s)
		if err != nil {
			keep(fmt.Errorf("include[%d] %q: %w", i, s, err))
			continue
		}
		c.include = append(c.include, ru)
	}
	for i, s := range r.Exclude {
		ru, err := compileRule(s)
		if err != nil {
			keep(fmt.Errorf("exclude[%d] %q: %w", i, s, err))
			continue
		}
		c.exclude = append(c.exclude, ru)
	}
	if len(r.Include) > 0 && len(c.include) == 0 {
		// Every include rule was invalid: match nothing rather than
		// silently widening the allowlist to the whole vault.
		c.include = []rule{{parts: []string{"/"}, glob: []bool{false}}}
	}
	return c, first
}

// NormalizeExtension returns ext lower-cased with one leading dot: "md",
// ".md" and ".MD" all give ".md"; "excalidraw.md" gives ".excalidraw.md". It
// returns an error wrapping ErrBadRule for "", "." or a value holding "/".
func NormalizeExtension(ext string) (string, error) {
	e := strings.ToLower(nfc(strings.TrimSpace(ext)))
	e = strings.TrimPrefix(e, ".")
	switch {
	case e == "":
		return "", fmt.Errorf("empty extension: %w", ErrBadRule)
	case strings.ContainsAny(e, `/\`):
		return "", fmt.Errorf("an extension cannot hold a path separator: %w", ErrBadRule)
	}
	return "." + e, nil
}

// compileRule normalises one include/exclude rule: NFC, no leading "./" or
// "/", no trailing "/" or "/**", no empty or "." components, consecutive
// "**" collapsed.
func compileRule(s string) (rule, error) {
	var ru rule
	for _, p := range splitPath(nfc(s)) {
		if p == ".." {
			return rule{}, fmt.Errorf(`".." leaves the vault: %w`, ErrBadRule)
		}
		if p == "**" {
			if n := len(ru.parts); n > 0 && ru.parts[n-1] == "**" {
				continue
			}
			ru.parts = append(ru.parts, p)
			ru.glob = append(ru.glob, true)
			continue
		}
		g := strings.ContainsAny(p, `*?[\`)
		if g {
			if _, err := path.Match(p, ""); err != nil {
				return rule{}, fmt.Errorf("pattern %q: %v: %w", p, err, ErrBadRule)
			}
		}
		ru.parts = append(ru.parts, p)
		ru.glob = append(ru.glob, g)
	}
	for n := len(ru.parts); n > 0 && ru.parts[n-1] == "**"; n-- {
		ru.parts, ru.glob = ru.parts[:n-1], ru.glob[:n-1]
	}
	ru.literal = !slices.Contains(ru.glob, true)
	if len(ru.parts) == 0 {
		return rule{}, fmt.Errorf("names no folder (to index the whole vault, leave the list empty): %w", ErrBadRule)
	}
	return ru, nil
}

// splitPath splits a slash-separated path into components, dropping empty
// and "." components (so "./a//b/" gives [a b]).
func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// nfc returns s in Unicode Normalization Form C, without allocating when s
// already is. Bytes that are not UTF-8 (Linux file names may hold any byte
// but "/" and NUL) become U+FFFD, so every path the walk reports is valid
// UTF-8.
func nfc(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// hasExt reports whether name ends with one of the extensions (ASCII
// case-insensitively) and is longer than it.
func (c *compiled) hasExt(name string) bool {
	for _, e := range c.exts {
		if len(name) > len(e) && strings.EqualFold(name[len(name)-len(e):], e) {
			return true
		}
	}
	return false
}

// hidden reports whether the last component of comps starts with "." and no
// literal include rule spells out comps up to and including it.
func (c *compiled) hidden(comps []string) bool {
	last := comps[len(comps)-1]
	if !strings.HasPrefix(last, ".") {
		return false
	}
	for _, ru := range c.include {
		if !ru.literal || len(ru.parts) < len(comps) {
			continue
		}
		same := true
		for i, p := range comps {
			if ru.parts[i] != p {
				same = false
				break
			}
		}
		if same {
			return false
		}
	}
	return true
}

// excluded reports whether an exclude rule matches exactly comps (the
// prefixes of comps are checked by the caller, one level at a time).
func (c *compiled) excluded(comps []string) bool {
	for _, ru := range c.exclude {
		if ru.match(comps) {
			return true
		}
	}
	return false
}

// includes reports whether an include rule matches exactly comps.
func (c *compiled) includes(comps []string) bool {
	for _, ru := range c.include {
		if ru.match(comps) {
			return true
		}
	}
	return false
}

// mayIncludeBelow reports whether some include rule could match a path that
// extends comps, so a folder not yet included is still worth walking.
func (c *compiled) mayIncludeBelow(comps []string) bool {
	for _, ru := range c.include {
		if ru.matchPrefixOf(comps) {
			return true
		}
	}
	return false
}

// match reports whether the rule matches all of comps.
func (ru rule) match(comps []string) bool {
	st := ru.run(comps)
	return st != nil && st[len(ru.parts)]
}

// matchPrefixOf reports whether comps can be extended by at least one more
// component into a path that the rule matches exactly.
func (ru rule) matchPrefixOf(comps []string) bool {
	st := ru.run(comps)
	return st != nil && slices.Contains(st[:len(ru.parts)], true)
}

// run feeds comps to the rule as a nondeterministic automaton whose state i
// means "parts[:i] matched so far", and returns the reachable states
// (st[len(parts)] is a full match), or nil when none is. A "**" part loops
// on any component and can also be skipped. Tracking the set of states keeps
// this O(len(comps) x len(parts)) where naive backtracking over several
// "**" parts is exponential.
func (ru rule) run(comps []string) []bool {
	n := len(ru.parts)
	cur, next := make([]bool, n+1), make([]bool, n+1)
	cur[0] = true
	ru.closure(cur)
	for _, c := range comps {
		clear(next)
		alive := false
		for i := 0; i < n; i++ {
			if !cur[i] {
				continue
			}
			switch {
			case ru.parts[i] == "**":
				next[i], alive = true, true
			case matchComp(ru.parts[i], ru.glob[i], c):
				next[i+1], alive = true, true
			}
		}
		if !alive {
			return nil
		}
		ru.closure(next)
		cur, next = next, cur
	}
	return cur
}

// closure adds the states reached by skipping "**" parts.
func (ru rule) closure(st []bool) {
	for i, p := range ru.parts {
		if st[i] && p == "**" {
			st[i+1] = true
		}
	}
}

func matchComp(part string, glob bool, name string) bool {
	if !glob {
		return part == name
	}
	ok, _ := path.Match(part, name)
	return ok
}
