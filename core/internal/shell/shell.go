// Package shell splits a shell command line into its pipelines, stages and
// words the way a reader of sh(1) would (POSIX.1-2017, Shell Command
// Language, 2.3 Token Recognition and 2.9 Shell Commands), enough to tell
// which programs a Bash tool call runs: quotes and backslashes are removed,
// redirections dropped, and the commands of subshells and command
// substitutions are commands of their own. It performs no expansion and
// knows no aliases, functions or here documents (their text is taken as
// words). It is pure Go and touches nothing outside its arguments.
package shell

import "strings"

// Pipelines returns the pipelines of line: its commands separated by &&,
// ||, ;, &, a newline, a parenthesis or a backquote outside quotes, each
// split at | into its stages, each stage its words with quotes removed and
// redirections dropped (see DropRedirections). A command substitution
// inside double quotes ("$(git diff)") also yields its own pipelines,
// placed before the pipeline of the word that holds it; the word keeps the
// substitution's text. Empty stages and pipelines are left out.
func Pipelines(line string) [][][]string { return pipelines(line, true) }

// PipelinesWithRedirections is Pipelines with every redirection kept as
// its words ("<", "in.txt"; "2>&1"; ">out"), for a caller that reads them
// (see InputFile); DropRedirections then gives Pipelines' words.
func PipelinesWithRedirections(line string) [][][]string { return pipelines(line, false) }

// InputFile returns the file a stage's words (PipelinesWithRedirections)
// redirect its standard input from ("< f", "<f", "0< f"), or "" when
// there is none; a here-document or here-string ("<<", "<<<") and a
// process substitution ("<(…)") are not files.
func InputFile(words []string) string {
	for i, w := range words {
		d := strings.TrimLeft(w, "0")
		if !strings.HasPrefix(d, "<") || strings.HasPrefix(d, "<<") || strings.HasPrefix(d, "<(") || strings.HasPrefix(d, "<&") || strings.HasPrefix(d, "<>") {
			continue
		}
		if t := d[1:]; t != "" {
			return t
		}
		if i+1 < len(words) {
			return words[i+1]
		}
	}
	return ""
}

func pipelines(line string, drop bool) [][][]string {
	var (
		pipes  [][][]string
		stages [][]string
		words  []string
		word   strings.Builder
		inWord bool
		quote  byte
	)
	endWord := func() {
		if inWord {
			words = append(words, word.String())
		}
		word.Reset()
		inWord = false
	}
	endStage := func() {
		endWord()
		ws := words
		if drop {
			ws = DropRedirections(words)
		}
		if len(ws) > 0 {
			stages = append(stages, ws)
		}
		words = nil
	}
	endPipe := func() {
		endStage()
		if len(stages) > 0 {
			pipes = append(pipes, stages)
		}
		stages = nil
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				word.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '$' && i+1 < len(line) && line[i+1] == '(' || c == '`':
				// A command substitution inside double quotes runs its
				// commands too: "$(git diff)" is git diff's output.
				end := substitutionEnd(line, i)
				inner := line[i+1 : end]
				if c == '$' {
					inner = line[i+2 : end]
				}
				pipes = append(pipes, pipelines(inner, drop)...)
				word.WriteString(line[i:min(end+1, len(line))])
				i = end
			case c == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`\n", line[i+1]) >= 0:
				i++
				if line[i] != '\n' {
					word.WriteByte(line[i])
				}
			default:
				word.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\':
			if i+1 < len(line) {
				i++
				if line[i] != '\n' { // a backslash-newline joins lines
					word.WriteByte(line[i])
					inWord = true
				}
			}
		case c == ' ' || c == '\t':
			endWord()
		case c == '&' && (i > 0 && line[i-1] == '>' || i+1 < len(line) && line[i+1] == '>'):
			word.WriteByte(c) // 2>&1, &>file: a redirection, not a list
			inWord = true
		case c == '|' && (i+1 >= len(line) || line[i+1] != '|'):
			endStage()
		case c == '|' || c == '&':
			if i+1 < len(line) && line[i+1] == c {
				i++ // || and &&
			}
			endPipe()
		case strings.IndexByte(";\n()`", c) >= 0:
			endPipe()
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endPipe()
	return pipes
}

// Commands returns the simple commands of line, every stage of every
// pipeline of Pipelines in order, each as its words.
func Commands(line string) [][]string {
	var cmds [][]string
	for _, p := range Pipelines(line) {
		cmds = append(cmds, p...)
	}
	return cmds
}

// substitutionEnd returns the index of the byte that closes the command
// substitution opened at line[i] ("$(" or a backquote), or len(line) when
// none does: the matching ")" counting nested parentheses outside quotes,
// or the next unescaped backquote.
func substitutionEnd(line string, i int) int {
	if line[i] == '`' {
		for j := i + 1; j < len(line); j++ {
			switch line[j] {
			case '\\':
				j++
			case '`':
				return j
			}
		}
		return len(line)
	}
	depth, quote := 0, byte(0)
	for j := i + 1; j < len(line); j++ {
		c := line[j]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				j++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			j++
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(line)
}

// DropRedirections returns words without redirections: a word starting
// with >, < or &> or with digits then > or < (2>&1, 2>/dev/null, >out),
// and the target word after an operator given alone (> out). It reuses
// words' backing array.
func DropRedirections(words []string) []string {
	out := words[:0]
	for i := 0; i < len(words); i++ {
		w := words[i]
		d := strings.TrimLeft(w, "0123456789")
		if !strings.HasPrefix(d, ">") && !strings.HasPrefix(d, "<") && !strings.HasPrefix(w, "&>") {
			out = append(out, w)
			continue
		}
		if strings.Trim(d, "<>&|") == "" && !strings.HasSuffix(d, "&") && i+1 < len(words) {
			i++ // an operator alone: its target is the next word
		}
	}
	return out
}
