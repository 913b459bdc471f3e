package compress

import (
	"path"
	"strings"
)

// reservedWords open a command of a compound one: "do cat $f", "then git
// diff", "{ cat f; }", "! grep x".
var reservedWords = map[string]bool{"do": true, "then": true, "else": true, "elif": true, "if": true, "while": true,
	"until": true, "{": true, "!": true}

// commandWords strips what runs a command rather than being it: leading
// env assignments (FOO=1), wrappers (sudo, time, command, exec, nice,
// env, nohup) and reserved words (do, then, …) of a stage of
// shell.Pipelines, which has dropped its redirections. The first word is
// then the program, as its base name.
func commandWords(words []string) []string {
	var out []string
	for _, w := range words {
		if w == "" {
			continue
		}
		if len(out) == 0 {
			switch {
			case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "="):
				continue
			case w == "sudo" || w == "time" || w == "command" || w == "exec" || w == "nice" || w == "env" || w == "nohup":
				continue
			case reservedWords[w]:
				continue
			}
			w = path.Base(w)
		}
		out = append(out, w)
	}
	return out
}
