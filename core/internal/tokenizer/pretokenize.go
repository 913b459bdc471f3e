package tokenizer

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// preTokenizer splits a normalized piece into words; empty words are dropped
// by the caller. first is true for the first piece of the input text.
type preTokenizer interface {
	split(s string, first bool, emit func(string))
}

// isBertPunct is pre_tokenizers/bert.rs is_bert_punc: ASCII punctuation or
// a Unicode punctuation category (Pc, Pd, Ps, Pe, Pi, Pf, Po).
func isBertPunct(r rune) bool {
	if r < 0x80 {
		return asciiPunct[r]
	}
	return unicode.IsPunct(r)
}

var asciiPunct = func() (t [128]bool) {
	for _, c := range "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~" {
		t[c] = true
	}
	return t
}()

// bertPre is BertPreTokenizer: split on whitespace (removed), then isolate
// every punctuation character.
type bertPre struct{}

func (bertPre) split(s string, _ bool, emit func(string)) {
	start := -1
	for i, r := range s {
		switch {
		case unicode.IsSpace(r):
			if start >= 0 {
				emit(s[start:i])
				start = -1
			}
		case isBertPunct(r):
			if start >= 0 {
				emit(s[start:i])
				start = -1
			}
			emit(s[i : i+utf8.RuneLen(r)])
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		emit(s[start:])
	}
}

// whitespaceSplit is WhitespaceSplit: split on whitespace, removed.
type whitespaceSplit struct{}

func (whitespaceSplit) split(s string, _ bool, emit func(string)) {
	for _, w := range strings.FieldsFunc(s, unicode.IsSpace) {
		emit(w)
	}
}

// metaspace is Metaspace: spaces become the replacement character, which is
// prepended (always, or on the first piece only) unless already there; with
// split, every replacement character starts a new word.
type metaspace struct {
	repl    string
	prepend string // "always", "first" or "never"
	split_  bool
}

func (m metaspace) split(s string, first bool, emit func(string)) {
	s = strings.ReplaceAll(s, " ", m.repl)
	if (m.prepend == "always" || (m.prepend == "first" && first)) && !strings.HasPrefix(s, m.repl) {
		s = m.repl + s
	}
	if !m.split_ {
		emit(s)
		return
	}
	start := 0
	for i := 1; i < len(s); {
		j := strings.Index(s[i:], m.repl)
		if j < 0 {
			break
		}
		emit(s[start : i+j])
		start = i + j
		i = start + len(m.repl)
	}
	emit(s[start:])
}

type seqPre []preTokenizer

func (q seqPre) split(s string, first bool, emit func(string)) {
	words := []string{s}
	for _, p := range q {
		var next []string
		for _, w := range words {
			p.split(w, first, func(x string) {
				if x != "" {
					next = append(next, x)
				}
			})
		}
		words = next
	}
	for _, w := range words {
		emit(w)
	}
}

// parsePreTokenizer builds the pre-tokenizer described by raw (null gives nil).
func parsePreTokenizer(raw []byte) (preTokenizer, error) {
	if !gjson.ValidBytes(raw) {
		return nil, fmt.Errorf("pre_tokenizer: invalid JSON")
	}
	return parsePreTokenizerG(gjson.ParseBytes(raw))
}

func parsePreTokenizerG(j gjson.Result) (preTokenizer, error) {
	if !j.Exists() || j.Type == gjson.Null {
		return nil, nil
	}
	if !j.IsObject() {
		return nil, fmt.Errorf("pre_tokenizer: not an object")
	}
	typ := j.Get("type").String()
	switch typ {
	case "BertPreTokenizer":
		return bertPre{}, nil
	case "WhitespaceSplit":
		return whitespaceSplit{}, nil
	case "Metaspace":
		m := metaspace{repl: j.Get("replacement").String(), prepend: j.Get("prepend_scheme").String(), split_: gbool(j, "split", true)}
		if m.repl == "" {
			m.repl = "\u2581"
		}
		if m.prepend == "" {
			m.prepend = "always"
			if !gbool(j, "add_prefix_space", true) {
				m.prepend = "never"
			}
		}
		return m, nil
	case "Sequence":
		var q seqPre
		for _, r := range j.Get("pretokenizers").Array() {
			p, err := parsePreTokenizerG(r)
			if err != nil {
				return nil, err
			}
			if p != nil {
				q = append(q, p)
			}
		}
		return q, nil
	}
	return nil, fmt.Errorf("%w: pre_tokenizer %q", ErrUnsupported, typ)
}
