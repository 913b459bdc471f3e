package compress

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on its first use instead of at
// package initialisation. The PostToolUse hook links this package into a
// process that lives for one call, and most calls use none of its
// expressions (an output under the threshold passes through before any is
// needed), while compiling all of them took 1.1-1.2 ms of every call
// (GODEBUG=inittrace=1, 44 expressions). Safe for concurrent use; every
// lazyRE is listed in lazyREs, which a test compiles, so a bad expression
// still fails the build's tests rather than a user's call.
type lazyRE struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// lazyREs are every lazyRE made by lazyCompile, in order.
var lazyREs []*lazyRE

// lazyCompile returns expr to be compiled (regexp.MustCompile) on first
// use.
func lazyCompile(expr string) *lazyRE {
	l := &lazyRE{expr: expr}
	lazyREs = append(lazyREs, l)
	return l
}

// get returns the compiled expression.
func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

// MatchString is regexp.Regexp.MatchString.
func (l *lazyRE) MatchString(s string) bool { return l.get().MatchString(s) }

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (l *lazyRE) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (l *lazyRE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (l *lazyRE) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }
