package compress

import (
	"path"
	"strings"
)

// shellPipelines splits a shell command line into its pipelines (separated
// by &&, ||, ;, & or a newline outside quotes) and each pipeline into its
// stages (separated by |), each stage as its words with quotes removed. It
// is a reader's approximation of sh(1)'s grammar, enough to tell which
// command writes the final output: no expansions, subshells or here
// documents (their text is taken as words).
func shellPipelines(command string) [][][]string {
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
			word.Reset()
			inWord = false
		}
	}
	endStage := func() {
		endWord()
		if len(words) > 0 {
			stages = append(stages, words)
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
	for i := 0; i < len(command); i++ {
		c := command[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(command) {
				i++
				word.WriteByte(command[i])
			} else {
				word.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(command):
			i++
			if command[i] != '\n' {
				word.WriteByte(command[i])
				inWord = true
			}
		case c == ' ' || c == '\t':
			endWord()
		case c == '|':
			if i+1 < len(command) && command[i+1] == '|' {
				i++
				endPipe()
			} else {
				endStage()
			}
		case c == '&' || c == ';' || c == '\n':
			if c == '&' && i+1 < len(command) && command[i+1] == '&' {
				i++
			}
			if c == '&' && i > 0 && (command[i-1] == '>' || i+1 < len(command) && command[i+1] == '>') {
				word.WriteByte(c) // 2>&1, &>file
				inWord = true
				continue
			}
			endPipe()
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endPipe()
	return pipes
}

// reservedWords open a command of a compound one: "do cat $f", "then git
// diff", "{ cat f; }", "! grep x".
var reservedWords = map[string]bool{"do": true, "then": true, "else": true, "elif": true, "if": true, "while": true,
	"until": true, "{": true, "!": true}

// commandWords strips what runs a command rather than being it: leading
// env assignments (FOO=1), wrappers (sudo, time, command, exec, nice,
// env, nohup) and reserved words (do, then, …), and redirections anywhere (2>&1, >out, <in). The first word
// is then the program, as its base name.
func commandWords(words []string) []string {
	var out []string
	for _, w := range words {
		if w == "" {
			continue
		}
		if strings.HasPrefix(w, ">") || strings.HasPrefix(w, "<") || strings.HasPrefix(w, "2>") || strings.HasPrefix(w, "1>") || strings.HasPrefix(w, "&>") {
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
