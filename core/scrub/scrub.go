package scrub

import (
	"sort"
	"strings"
	"sync"
)

// Finding is one detected secret: text[Start:End] (byte offsets into the
// scanned text, End exclusive) matched rule Rule. It never holds the secret.
type Finding struct {
	Rule       string
	Start, End int
}

// Scrubber finds and redacts credentials. Build one with New, or share
// Default. A Scrubber is safe for concurrent use; provider expressions are
// compiled on first use.
type Scrubber struct {
	anchors  *anchorSet
	handlers []handler // by anchor pattern id
	rules    []*tokenRule
}

// handler is what runs when an anchor pattern is found.
type handler struct {
	kind int        // one of the h* constants
	rule *tokenRule // for hToken
}

const (
	hToken = iota
	hKV
	hURL
	hAuthorization
	hBearer
	hBasic
	hPrivateKey
	hJWT
	hCurl
	hShortPass
	hPutty
	hPrivateKeyEnd
)

// Priorities decide which rule names a merged finding: provider formats beat
// structural detectors, which beat assignments.
const (
	prioKV = iota + 1
	prioStructural
	prioProvider
)

// kvAnchors are the key words that start an assignment parse; each is a
// substring of the key names it stands for (pass: password, passwd,
// passphrase; pw: pwd; key: api_key, AccountKey).
var kvAnchors = []string{"pass", "pw", "secret", "token", "key", "auth", "cred"}

// New builds a Scrubber: the anchor automaton and the rule table. It does not
// compile any regular expression; BenchmarkNew measures it (under 2 ms).
func New() *Scrubber {
	s := &Scrubber{rules: providerRules()}
	var pats []string
	add := func(p string, h handler) {
		pats = append(pats, p)
		s.handlers = append(s.handlers, h)
	}
	for _, r := range s.rules {
		for _, a := range r.anchors {
			add(a, handler{kind: hToken, rule: r})
		}
	}
	for _, a := range kvAnchors {
		add(a, handler{kind: hKV})
	}
	add("://", handler{kind: hURL})
	add("authorization", handler{kind: hAuthorization})
	add("bearer", handler{kind: hBearer})
	add("basic", handler{kind: hBasic})
	add("-----begin", handler{kind: hPrivateKey})
	add("-----end", handler{kind: hPrivateKeyEnd})
	add("eyj", handler{kind: hJWT})
	add("-u", handler{kind: hCurl})
	add("--user", handler{kind: hCurl})
	add("-p", handler{kind: hShortPass})
	add("private-lines:", handler{kind: hPutty})
	s.anchors = newAnchorSet(pats)
	return s
}

var (
	defaultOnce sync.Once
	defaultS    *Scrubber
)

// Default returns the process-wide Scrubber, built on first use.
func Default() *Scrubber {
	defaultOnce.Do(func() { defaultS = New() })
	return defaultS
}

// RuleIDs returns the ids of the provider rules followed by the generic ones,
// as they appear in Finding.Rule and in [REDACTED:<rule-id>].
func RuleIDs() []string {
	var ids []string
	seen := map[string]bool{}
	for _, r := range providerRules() {
		if !seen[r.id] {
			seen[r.id] = true
			ids = append(ids, r.id)
		}
	}
	return append(ids, genericRuleIDs...)
}

var genericRuleIDs = []string{
	"database-url-password", "url-credentials", "jwt", "bearer-token",
	"basic-auth-header", "authorization-header", "password-assignment",
	"connection-string-password", "generic-secret-assignment",
	"high-entropy-hex", "high-entropy-base64", "docker-config-auth",
	"private-key", "curl-auth", "cli-password",
}

// candidate is a finding before merging.
type candidate struct {
	Finding
	prio int
}

// scan holds the state of one Find call.
type scan struct {
	s       *Scrubber
	text    string
	markers [][2]int // existing [REDACTED:...] spans, sorted
	cands   []candidate
	lastKey int   // start of the last key parsed by kv, to parse each key once
	begins  []int // offsets of private key BEGIN lines seen so far
}

// Find returns the secrets in text, sorted by Start and non-overlapping
// (overlapping matches are merged and named after the most specific rule).
// It returns nil when there is none. Existing [REDACTED:...] markers are
// never reported.
func (s *Scrubber) Find(text string) []Finding {
	sc := &scan{s: s, text: text, lastKey: -1}
	sc.findMarkers()
	s.anchors.scan(text, sc.hit)
	if len(sc.cands) == 0 {
		return nil
	}
	sc.addRepeats()
	return merge(sc.cands)
}

// Scrub returns text with every finding replaced by [REDACTED:<rule-id>],
// and the findings (offsets into the input text). Text without findings is
// returned unchanged. Scrub is idempotent: Scrub(Scrub(x)) == Scrub(x).
func (s *Scrubber) Scrub(text string) (string, []Finding) {
	fs := s.Find(text)
	if len(fs) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, f := range fs {
		b.WriteString(text[last:f.Start])
		b.WriteString(marker)
		b.WriteString(f.Rule)
		b.WriteByte(']')
		last = f.End
	}
	b.WriteString(text[last:])
	return b.String(), fs
}

func (sc *scan) findMarkers() {
	t := sc.text
	for i := 0; ; {
		j := strings.Index(t[i:], marker)
		if j < 0 {
			return
		}
		start := i + j
		end := start + len(marker)
		for end < len(t) && isRuleIDChar(t[end]) {
			end++
		}
		if end < len(t) && t[end] == ']' {
			sc.markers = append(sc.markers, [2]int{start, end + 1})
			i = end + 1
		} else {
			i = start + 1
		}
	}
}

func isRuleIDChar(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-'
}

// overlapsMarker reports whether [start, end) overlaps an existing marker.
func (sc *scan) overlapsMarker(start, end int) bool {
	ms := sc.markers
	i := sort.Search(len(ms), func(i int) bool { return ms[i][1] > start })
	return i < len(ms) && ms[i][0] < end
}

func (sc *scan) add(rule string, start, end, prio int) {
	if end <= start || sc.overlapsMarker(start, end) {
		return
	}
	sc.cands = append(sc.cands, candidate{Finding{Rule: rule, Start: start, End: end}, prio})
}

func (sc *scan) hit(id int32, start, end int) {
	if len(sc.markers) > 0 && sc.overlapsMarker(start, end) {
		return
	}
	h := sc.s.handlers[id]
	switch h.kind {
	case hToken:
		if s, e, ok := h.rule.matchToken(sc.text, start, end); ok {
			sc.add(h.rule.id, s, e, prioProvider)
		}
	case hKV:
		sc.kv(start, end)
	case hURL:
		sc.url(start, end)
	case hAuthorization:
		sc.authorization(start, end)
	case hBearer:
		sc.bearer(start, end)
	case hBasic:
		sc.basic(start, end)
	case hPrivateKey:
		sc.privateKey(start, end)
	case hJWT:
		sc.jwt(start, end)
	case hCurl:
		sc.curl(start, end)
	case hShortPass:
		sc.shortPassFlag(start, end)
	case hPutty:
		sc.puttyKey(start, end)
	case hPrivateKeyEnd:
		sc.privateKeyEnd(start, end)
	}
}

// maxRepeatSecrets bounds how many distinct secrets addRepeats searches
// for; each search reads the whole text once.
const maxRepeatSecrets = 32

// addRepeats redacts every other occurrence of a found secret of 8 bytes or
// more (the first maxRepeatSecrets distinct ones), so a secret quoted again
// later without context does not leak.
func (sc *scan) addRepeats() {
	n := len(sc.cands)
	seen := map[string]bool{}
	for k := 0; k < n && len(seen) < maxRepeatSecrets; k++ {
		c := sc.cands[k]
		sec := sc.text[c.Start:c.End]
		if len(sec) < 8 || seen[sec] {
			continue
		}
		seen[sec] = true
		for i := 0; ; {
			j := strings.Index(sc.text[i:], sec)
			if j < 0 {
				break
			}
			s := i + j
			if s != c.Start {
				sc.add(c.Rule, s, s+len(sec), c.prio)
			}
			// Non-overlapping occurrences suffice: one that overlaps a
			// redacted occurrence is broken in the output anyway.
			i = s + len(sec)
		}
	}
}

// merge sorts candidates and merges overlapping ones; a merged finding takes
// the rule of its highest-priority part (the earliest on ties).
func merge(cs []candidate) []Finding {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Start != cs[j].Start {
			return cs[i].Start < cs[j].Start
		}
		return cs[i].End > cs[j].End
	})
	out := make([]Finding, 0, len(cs))
	cur := cs[0]
	for _, c := range cs[1:] {
		if c.Start < cur.End {
			if c.End > cur.End {
				cur.End = c.End
			}
			if c.prio > cur.prio {
				cur.prio = c.prio
				cur.Rule = c.Rule
			}
			continue
		}
		out = append(out, cur.Finding)
		cur = c
	}
	return append(out, cur.Finding)
}
