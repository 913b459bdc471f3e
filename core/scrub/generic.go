package scrub

import (
	"strings"
)

func isKeyChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '.'
}

func skipBlanks(t string, p int) int {
	for p < len(t) && (t[p] == ' ' || t[p] == '\t') {
		p++
	}
	return p
}

// Work bounds, so that hostile input (a hook scrubs arbitrary tool output)
// costs linear time: no parse looks further than these from its anchor.
const (
	maxKeyLen      = 80   // bytes of a key name
	maxValueLen    = 1024 // bytes of an assigned value
	maxPasswordLen = 128  // bytes of a password
	maxLookBack    = 512  // bytes a line-context check looks back
)

// lineStart returns the offset of the first byte of the line holding p, or
// of the look-back window (p-maxLookBack) when the line is longer.
func lineStart(t string, p int) int {
	lo := max(0, p-maxLookBack)
	return lo + strings.LastIndexByte(t[lo:p], '\n') + 1
}

// atLineStartOf returns the start of the line holding p and whether that
// line began within the look-back window.
func atLineStartOf(t string, p int) (int, bool) {
	ls := lineStart(t, p)
	return ls, ls == 0 || t[ls-1] == '\n'
}

// lineContext returns t[from:p] cut after its last redaction marker. Context
// checks that look back over lines use it so that a second Scrub, which sees
// a multi-line private key as one marker, never finds context that the
// first one did not see: text after the last marker was there the first
// time too.
func lineContext(t string, from, p int) string {
	c := t[from:p]
	if i := strings.LastIndex(c, marker); i >= 0 {
		c = c[i:]
	}
	return c
}

// keyKind classifies a key name.
type keyKind int

const (
	kindNone     keyKind = iota
	kindPassword         // password, passwd, pwd, pw, passphrase ...
	kindSecret           // secret, token, api key, credentials, auth ...
	kindWeakKey          // <vendor>_key: only a strongly random value counts
	kindBareKey          // key: only a strongly random, non-hex value counts (hex is often a digest)
)

var passwordWords = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "pw": true, "pass": true,
	"passphrase": true, "passcode": true, "passwort": true, "pswd": true,
	"pword": true, "passw": true,
}

var secretWords = map[string]bool{
	"secret": true, "token": true, "apikey": true, "credential": true,
	"credentials": true, "creds": true, "auth": true, "authkey": true,
	"secrets": true, "cred": true, "authorization": true,
}

// keyQualifiers make "<q> key" / "<q>_key" / "<q>Key" a secret name.
var keyQualifiers = map[string]bool{
	"api": true, "secret": true, "private": true, "access": true, "auth": true,
	"encryption": true, "signing": true, "master": true, "client": true,
	"account": true, "app": true, "service": true, "session": true,
	"consumer": true, "webhook": true, "shared": true, "storage": true,
	"admin": true, "hmac": true, "jwt": true, "crypto": true, "cipher": true,
	"aes": true, "decryption": true, "subscription": true, "sas": true,
	"deploy": true, "integration": true, "server": true, "bot": true,
	"token": true, "x": true, "application": true, "mac": true, "sign": true,
}

// keyNonSecret qualifiers name keys that are not credentials.
var keyNonSecret = map[string]bool{
	"public": true, "pub": true, "primary": true, "foreign": true, "sort": true,
	"partition": true, "cache": true, "hash": true, "row": true, "map": true,
	"lookup": true, "idempotency": true, "object": true, "s3": true,
	"ssh": true, "gpg": true, "pgp": true, "registry": true, "composite": true,
	"unique": true, "index": true, "hot": true, "short": true, "cut": true,
	"the": true, "a": true, "this": true, "that": true, "your": true, "my": true,
	"our": true, "each": true, "every": true, "no": true, "any": true,
	"license": true, "product": true, "search": true, "dictionary": true,
	"shortcut": true, "keyboard": true, "sorting": true, "publishable": true,
	"anon": true, "site": true, "recaptcha": true,
}

// keyWords returns the last three words of a key name, lower case, last
// first, and whether any word is "public" or "pub". Words are split at '_',
// '-', '.', and lower-to-upper case changes (dbPassword -> db, password).
func keyWords(k string) (words [3]string, public bool) {
	lk := strings.ToLower(k)
	end := len(k)
	n := 0
	for i := len(k) - 1; i >= -1; i-- {
		boundary := i < 0 || k[i] == '_' || k[i] == '-' || k[i] == '.'
		camel := !boundary && i > 0 && 'A' <= k[i] && k[i] <= 'Z' && 'a' <= k[i-1] && k[i-1] <= 'z'
		if !boundary && !camel {
			continue
		}
		start := i + 1
		if camel {
			start = i
		}
		if start < end {
			w := lk[start:end]
			if w == "public" || w == "pub" {
				public = true
			}
			if n < len(words) {
				words[n] = w
				n++
			}
		}
		end = i
	}
	return words, public
}

// suffixWords say how a secret is stored, not what it is: SECRET_KEY_BASE,
// TOKEN_VALUE and PASSWORD_B64 are classified by the word before them.
var suffixWords = map[string]bool{
	"base": true, "value": true, "val": true, "string": true, "str": true,
	"data": true, "b64": true, "base64": true, "hex": true, "raw": true,
	"bytes": true, "plain": true, "plaintext": true, "text": true,
	"literal": true, "encoded": true, "content": true, "contents": true,
}

func hasAnySuffix(s string, suf ...string) bool {
	for _, x := range suf {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// classifyKey decides what a key name holds. prev is the word written before
// it with one space ("encryption" in "encryption key"), or "".
func classifyKey(key, prevText string) keyKind {
	words, public := keyWords(key)
	if words[0] == "" || public {
		return kindNone // PublicKeyToken, public_key: public by design
	}
	last, prev := words[0], words[1]
	if suffixWords[last] && prev != "" {
		last, prev = prev, words[2]
	}
	if last == "pass" && prev == "" {
		return kindNone // "--- PASS: TestX" in test output; db_pass still counts
	}
	switch {
	case passwordWords[last] || hasAnySuffix(last, "password", "passwd", "passphrase"):
		return kindPassword
	case secretWords[last] || hasAnySuffix(last, "secret", "token", "apikey"):
		return kindSecret
	case strings.HasSuffix(last, "key"):
		q := strings.TrimSuffix(last, "key")
		if q == "" {
			q = prev
			if q == "" {
				q = strings.ToLower(prevText)
			}
		}
		switch {
		case q == "" && last == "key":
			return kindBareKey
		case q == "":
			return kindNone
		case keyQualifiers[q]:
			return kindSecret
		case keyNonSecret[q]:
			return kindNone
		default:
			return kindWeakKey
		}
	}
	return kindNone
}

// prevWord returns the letters-only word that ends one space before p.
func prevWord(t string, p int) string {
	if p < 2 || t[p-1] != ' ' {
		return ""
	}
	e := p - 1
	s := e
	for s > 0 && e-s < 32 && ('a' <= t[s-1] && t[s-1] <= 'z' || 'A' <= t[s-1] && t[s-1] <= 'Z') {
		s--
	}
	return t[s:e]
}

// separator modes of an assignment.
const (
	sepAssign   = iota // = : := => ?=
	sepXML             // <password>value</password>
	sepInformal        // "password is value"
	sepSpace           // --password value, .netrc "password value"
)

// kv parses an assignment around a key word found at [hs, he): key, optional
// closing quote, separator, optional opening quote, value.
func (sc *scan) kv(hs, he int) {
	t := sc.text
	ks, ke := hs, he
	for ks > 0 && isKeyChar(t[ks-1]) {
		if ks--; he-ks > maxKeyLen {
			return
		}
	}
	for ke < len(t) && isKeyChar(t[ke]) {
		if ke++; ke-ks > maxKeyLen {
			return
		}
	}
	for ke > he && (t[ke-1] == '.' || t[ke-1] == '-') {
		ke--
	}
	if ks == sc.lastKey {
		return
	}
	sc.lastKey = ks
	key := t[ks:ke]
	flag := strings.HasPrefix(key, "-")
	kind := classifyKey(strings.TrimLeft(key, "-_."), prevWord(t, ks))
	if kind == kindNone {
		return
	}

	p := ke
	open := byte(0)
	if ks > 0 {
		open = t[ks-1]
	}
	if p+1 < len(t) && t[p] == '\\' && t[p+1] == '"' {
		p += 2 // JSON-escaped key: \"password\": \"...\"
	} else if p < len(t) && (open == '"' || open == '\'') && t[p] == open {
		p++
	}
	for p < len(t) && t[p] == '*' { // markdown **Password**:
		p++
	}
	p0 := p
	p = skipBlanks(t, p)
	if open == '"' && ks >= 5 && (strings.HasSuffix(t[:ks-1], "key=") || strings.HasSuffix(t[:ks-1], "name=")) &&
		len(t)-p > 6 && strings.EqualFold(t[p:p+6], "value=") {
		p += 5 // <add key="Password" value="..."/>: "=" is the separator
	}
	if p < len(t) && t[p] == '[' { // aws configure: "AWS Secret Access Key [None]: "
		if e := strings.IndexByte(t[p:min(len(t), p+24)], ']'); e > 0 && !strings.ContainsAny(t[p:p+e], "\n:=") {
			p = skipBlanks(t, p+e+1)
		}
	}
	if kind == kindPassword && p > p0 && p < len(t) && !strings.HasPrefix(t[p:], "is ") && !strings.HasPrefix(t[p:], "was ") {
		// "password for the guest wifi is X": up to four words between.
		p = skipWordsToIs(t, p)
	}
	if p >= len(t) {
		return
	}
	mode := -1
	switch c := t[p]; {
	case strings.HasPrefix(t[p:], ":=") || strings.HasPrefix(t[p:], "=>") || strings.HasPrefix(t[p:], "?="):
		mode, p = sepAssign, p+2
	case c == '=' && !strings.HasPrefix(t[p:], "=="):
		mode, p = sepAssign, p+1
	case c == ':' && !strings.HasPrefix(t[p:], "::"):
		if open == ':' {
			return // colon path such as an ARN: ...:secret:Name
		}
		mode, p = sepAssign, p+1
	case c == '>' && open == '<' && p == p0:
		mode, p = sepXML, p+1
	case p > p0 && (strings.HasPrefix(t[p:], "is ") || strings.HasPrefix(t[p:], "was ")):
		if kind == kindWeakKey || kind == kindBareKey {
			return
		}
		mode = sepInformal
		p += strings.IndexByte(t[p:], ' ')
	case p > p0 && (flag || kind == kindPassword && netrcLine(t, ks)):
		mode = sepSpace
	default:
		return
	}
	for p < len(t) && t[p] == '*' {
		p++
	}
	p = skipBlanks(t, p)
	if p >= len(t) {
		return
	}

	query := open == '?' || open == '&'
	if p+1 < len(t) && strings.IndexByte("brufBRUF@", t[p]) >= 0 && (t[p+1] == '"' || t[p+1] == '\'') {
		p++ // b"..." r'...' @"..." literals
	}
	limit := maxValueLen
	if kind == kindPassword {
		limit = maxPasswordLen + 1
	}
	vs, ve, quoted := value(t, p, mode, query, mode == sepAssign && lineKey(t, ks), limit)
	if ve <= vs {
		return
	}
	v := t[vs:ve]
	if mode == sepSpace && v[0] == '-' {
		return
	}
	if !quoted && mode == sepInformal {
		for len(v) > 0 && strings.IndexByte(".,!?:", v[len(v)-1]) >= 0 {
			v = v[:len(v)-1]
			ve--
		}
	}
	if isPlaceholder(v) || (!quoted && isCodeLike(v)) {
		return
	}
	lk := strings.ToLower(strings.TrimLeft(key, "-_."))
	rule := ""
	switch kind {
	case kindPassword:
		if len(v) > maxPasswordLen || !(looksLikePassword(v) || mode != sepInformal && isPassphrase(v)) || mode == sepInformal && !strongInformal(v) {
			return
		}
		rule = "password-assignment"
		if (ks > 0 && t[ks-1] == ';') || (ve < len(t) && t[ve] == ';') {
			rule = "connection-string-password"
		}
	case kindSecret:
		if lk == "auth" && open == '"' && isBase64(v) && decodesToUserPass(v) {
			rule = "docker-config-auth"
			break
		}
		if !looksRandom(v, 10, 3.0) || strings.IndexByte(v, '\\') >= 0 {
			return // DOMAIN\user is an account name
		}
		if strings.HasPrefix(lk, "cred") || strings.Contains(lk, "credential") {
			if strings.ContainsAny(v, "/@") {
				return // -Credential Domain01/Admin01, user@example.com
			}
		}
		rule = secretRule(v)
	case kindWeakKey, kindBareKey:
		if !looksRandom(v, 20, 3.5) || strings.IndexByte(v, '\\') >= 0 {
			return // HKLM\Software\... is a registry key
		}
		if kind == kindBareKey && (isHex(v) || isHex(strings.ReplaceAll(v, "-", ""))) {
			return // key: <sha or uuid> is a digest or an id
		}
		rule = secretRule(v)
	}
	sc.add(rule, vs, ve, prioKV)
}

func secretRule(v string) string {
	switch {
	case isHex(v) && len(v) >= 32:
		return "high-entropy-hex"
	case isBase64(v) && len(v) >= 24 && entropy(v) >= 4.0:
		return "high-entropy-base64"
	}
	return "generic-secret-assignment"
}

// isPassphrase reports a diceware-style passphrase: four or more
// lower-case words joined by '-', '_' or '.', 20 bytes or more
// (correct-horse-battery-staple). Shorter word chains are names
// (read-only, my-tls-secret).
func isPassphrase(v string) bool {
	if len(v) < 20 || isPlaceholder(v) {
		return false
	}
	words := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(words) < 4 {
		return false
	}
	for _, w := range words {
		if !isLetters(w) || strings.ToLower(w) != w {
			return false
		}
	}
	return true
}

// strongInformal is the stricter test for "password is X" in prose: X mixes
// three character classes, or letters and digits without hyphenated words.
func strongInformal(v string) bool {
	lower, upper, digit, symbol := charClasses(v)
	if count(lower, upper, digit, symbol) >= 3 {
		return true
	}
	return digit && (lower || upper) && !symbol
}

// netrcLine reports whether the key at p sits in a .netrc entry: the line or
// the one before it has a "machine" or "login" token.
func netrcLine(t string, p int) bool {
	ls := lineStart(t, p)
	prev := 0
	if ls > 0 {
		prev = lineStart(t, ls-1)
	}
	seg := " " + lineContext(t, prev, p)
	return strings.Contains(seg, " machine ") || strings.Contains(seg, " login ") ||
		strings.Contains(seg, "\nmachine ") || strings.Contains(seg, "\nlogin ")
}

// value scans the value of an assignment starting at p; in a URL query
// (query) '&' and '#' end it too. A value longer than limit bytes is
// rejected. It returns the span
// of the value proper (without quotes) and whether it was quoted; an empty
// span means no usable value.
func value(t string, p, mode int, query, wholeLine bool, limit int) (vs, ve int, quoted bool) {
	if mode == sepXML {
		e := strings.IndexByte(t[p:min(len(t), p+limit)], '<')
		if e < 0 || strings.ContainsAny(t[p:p+e], " \t\n") {
			return 0, 0, false
		}
		return p, p + e, true
	}
	// JSON-escaped quote.
	if p+1 < len(t) && t[p] == '\\' && t[p+1] == '"' {
		e := strings.Index(t[p+2:min(len(t), p+2+limit)], `\"`)
		if e < 0 || strings.ContainsAny(t[p+2:p+2+e], " \t\n") {
			return 0, 0, false
		}
		return p + 2, p + 2 + e, true
	}
	if q := t[p]; q == '"' || q == '\'' || q == '`' {
		i := p + 1
		for i < len(t) && t[i] != q && t[i] != '\n' && i-p <= limit {
			if t[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(t) || t[i] != q {
			return 0, 0, false
		}
		if strings.ContainsAny(t[p+1:i], " \t") {
			return 0, 0, false
		}
		return p + 1, i, true
	}
	i := p
	if wholeLine {
		// KEY=value on a line of its own (env files, INI, YAML): the value
		// runs to the next blank, whatever symbols it holds.
		for i < len(t) && t[i] > ' ' && t[i] != '"' && t[i] != '\'' && t[i] != '`' {
			if i++; i-p > limit {
				return 0, 0, false
			}
		}
		for i > p && (t[i-1] == ';' || t[i-1] == ',') { // statement or list syntax
			i--
		}
		return p, i, false
	}
	for i < len(t) && !valueStop[t[i]] && !(query && (t[i] == '&' || t[i] == '#')) {
		if i++; i-p > limit {
			return 0, 0, false
		}
	}
	return p, i, false
}

// lineKey reports whether the key at ks opens its line, after indentation
// and an optional "export ", "set ", "- " or Dockerfile "ENV "/"ARG ".
func lineKey(t string, ks int) bool {
	ls, ok := atLineStartOf(t, ks)
	if !ok {
		return false
	}
	pre := strings.TrimLeft(t[ls:ks], " \t")
	for _, w := range []string{"export ", "set ", "SET ", "- ", "ENV ", "ARG ", "$env:", "$"} {
		pre = strings.TrimPrefix(pre, w)
	}
	return pre == ""
}

// skipWordsToIs skips up to four short words after a password key when they
// end in " is " or " was " ("password for the guest wifi is X"), returning
// the offset of "is"/"was", or p unchanged.
func skipWordsToIs(t string, p int) int {
	q := p
	for n := 0; n < 4; n++ {
		e := q
		for e < len(t) && e-q < 24 && (isAlnum(t[e]) || t[e] == '-' || t[e] == '.') {
			e++
		}
		if e == q || e >= len(t) || t[e] != ' ' {
			return p
		}
		q = e + 1
		if strings.HasPrefix(t[q:], "is ") || strings.HasPrefix(t[q:], "was ") {
			return q
		}
	}
	return p
}

// valueStop marks the bytes that end an unquoted value inside a line:
// blanks, quotes and the punctuation of lists, statements and markup.
var valueStop = [256]bool{
	' ': true, '\t': true, '\n': true, '\r': true, '\f': true, '\v': true,
	'"': true, '\'': true, '`': true, ';': true, ',': true, '<': true,
	')': true, ']': true, '}': true, '|': true,
}

// dbSchemes are URL schemes of databases and brokers.
var dbSchemes = map[string]bool{
	"postgres": true, "postgresql": true, "mysql": true, "mariadb": true,
	"mongodb": true, "mongodb+srv": true, "redis": true, "rediss": true,
	"amqp": true, "amqps": true, "mssql": true, "sqlserver": true,
	"oracle": true, "cockroachdb": true, "clickhouse": true, "couchdb": true,
	"memcached": true, "neo4j": true, "neo4j+s": true, "bolt": true,
	"cassandra": true, "nats": true, "mqtt": true, "mqtts": true,
	"kafka": true, "elasticsearch": true, "influxdb": true, "db2": true,
	"postgis": true, "timescaledb": true, "snowflake": true,
}

// url finds credentials in the user info of a URL whose "://" is at [hs, he):
// scheme://user:password@host. The password is the secret; a user part
// without password counts only when it is itself a random token.
func (sc *scan) url(hs, he int) {
	t := sc.text
	ss := hs
	for ss > 0 && hs-ss < 32 && (isAlnum(t[ss-1]) || t[ss-1] == '+' || t[ss-1] == '.' || t[ss-1] == '-') {
		ss--
	}
	if ss == hs || !('a' <= lowerASCII(t[ss]) && lowerASCII(t[ss]) <= 'z') {
		return
	}
	scheme := strings.ToLower(t[ss:hs])
	// The authority ends at '/', '?', '#', whitespace or a quote; the user
	// info ends at its last '@'.
	end := he
	at := -1
	for end < len(t) && end-he < 512 {
		c := t[end]
		if c == '/' || c == '?' || c == '#' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == ')' || c <= ' ' {
			break
		}
		if c == '@' {
			at = end
		}
		end++
	}
	if at < 0 {
		return
	}
	ui := t[he:at]
	if strings.Contains(ui, marker) || strings.ContainsAny(ui, "[]") {
		return
	}
	colon := strings.IndexByte(ui, ':')
	if colon < 0 {
		if looksRandom(ui, 20, 3.5) && !isPlaceholder(ui) {
			sc.add("url-credentials", he, at, prioStructural)
		}
		return
	}
	pw := ui[colon+1:]
	if len(pw) < 3 || isPlaceholder(pw) || isURLPlaceholder(pw) {
		return
	}
	rule := "url-credentials"
	if dbSchemes[scheme] {
		rule = "database-url-password"
	}
	sc.add(rule, he+colon+1, at, prioStructural)
}

// isURLPlaceholder reports documentation passwords in URLs such as
// user:password@, user:pass@, :secret@, :PASSWORD@.
func isURLPlaceholder(pw string) bool {
	switch strings.ToLower(strings.Trim(pw, "_-")) {
	case "password", "pass", "passwd", "pwd", "pw", "secret", "pass123",
		"mypassword", "yourpassword", "user_password", "db_password", "x-oauth-basic":
		return true
	}
	return false
}

func isCredChar(c byte) bool {
	return isAlnum(c) || strings.IndexByte("._~+/=-", c) >= 0
}

func credSpan(t string, p int) (int, int) {
	e := p
	for e < len(t) && isCredChar(t[e]) {
		e++
	}
	return p, e
}

// authorization parses an Authorization (or Proxy-Authorization) header at
// [hs, he): optional quote, ':' or '=', optional quote, optional scheme word,
// credential.
func (sc *scan) authorization(hs, he int) {
	t := sc.text
	p := he
	if p < len(t) && (t[p] == '"' || t[p] == '\'') {
		p++
	}
	p = skipBlanks(t, p)
	if p >= len(t) || (t[p] != ':' && t[p] != '=') || strings.HasPrefix(t[p:], "==") {
		return
	}
	p = skipBlanks(t, p+1)
	if p < len(t) && (t[p] == '"' || t[p] == '\'') {
		p++
	}
	p = skipBlanks(t, p)
	ws, we := credSpan(t, p)
	if we == ws {
		return
	}
	scheme := ""
	cs, ce := ws, we
	if we < len(t) && (t[we] == ' ' || t[we] == '\t') && we-ws <= 16 && isLetters(t[ws:we]) {
		scheme = strings.ToLower(t[ws:we])
		cs, ce = credSpan(t, skipBlanks(t, we))
	}
	cred := t[cs:ce]
	if scheme == "digest" || len(cred) < 8 || isPlaceholder(cred) || isIdentifierLike(cred) {
		return
	}
	rule := "authorization-header"
	switch scheme {
	case "bearer":
		rule = "bearer-token"
	case "basic":
		rule = "basic-auth-header"
	}
	sc.add(rule, cs, ce, prioStructural)
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// bearer handles "Bearer <token>" outside an Authorization header: the token
// must look random (16 bytes or more, entropy 3 bits per byte or more).
func (sc *scan) bearer(hs, he int) {
	t := sc.text
	if hs > 0 && isAlnum(t[hs-1]) || he >= len(t) || (t[he] != ' ' && t[he] != '\t') {
		return
	}
	cs, ce := credSpan(t, skipBlanks(t, he))
	cred := t[cs:ce]
	if isPlaceholder(cred) || !looksRandom(cred, 16, 3.0) {
		return
	}
	sc.add("bearer-token", cs, ce, prioStructural)
}

// basic handles "Basic <base64>" whose payload decodes to user:password.
func (sc *scan) basic(hs, he int) {
	t := sc.text
	if hs > 0 && isAlnum(t[hs-1]) || he >= len(t) || (t[he] != ' ' && t[he] != '\t') {
		return
	}
	cs, ce := credSpan(t, skipBlanks(t, he))
	cred := t[cs:ce]
	if len(cred) < 8 || !decodesToUserPass(cred) {
		return
	}
	sc.add("basic-auth-header", cs, ce, prioStructural)
}

// privateKey redacts a PEM or PGP private key block from its BEGIN line to
// its END line. Without an END line (a truncated paste) it redacts the
// header lines and the base64 body that follow. Blocks whose label lacks
// "PRIVATE KEY" (certificates, public keys) are left alone.
func (sc *scan) privateKey(hs, he int) {
	t := sc.text
	if t[hs:he] != "-----BEGIN" {
		return
	}
	le := strings.Index(t[he:min(len(t), he+80)], "-----")
	if le < 0 {
		return
	}
	label := strings.TrimSpace(t[he : he+le])
	if !strings.Contains(label, "PRIVATE KEY") {
		return
	}
	bodyStart := he + le + 5
	sc.begins = append(sc.begins, hs)
	// A body never holds "-----", so the next one is the END line or the
	// block is truncated.
	endMark := "-----END " + label + "-----"
	if e := strings.Index(t[bodyStart:min(len(t), bodyStart+1<<16)], "-----"); e >= 0 && strings.HasPrefix(t[bodyStart+e:], endMark) {
		if base64Count(t[bodyStart:bodyStart+e]) >= 32 { // not "MIIE..." in docs
			sc.add("private-key", hs, bodyStart+e+len(endMark), prioStructural)
		}
		return
	}
	// Truncated: take lines (or JSON "\n"-escaped pieces) of headers and
	// base64 until something else shows up; a bare BEGIN line quoted in prose
	// has no body and is left alone.
	p := bodyStart
	body := 0
	for p < len(t) {
		c := t[p]
		switch {
		case isBase64Char(c) && c != '-' && c != '_':
			p++
			body++
		case c == '\n' || c == '\r':
			p++
		case c == '\\' && p+1 < len(t) && (t[p+1] == 'n' || t[p+1] == 'r'):
			p += 2
		case c == ':' || c == ',' || c == ' ' || c == '-':
			// header lines such as "Proc-Type: 4,ENCRYPTED" or "Version: x"
			le := strings.IndexByte(t[p:], '\n')
			ls := lineStart(t, p)
			if !strings.Contains(t[ls:p], ":") && c != ':' {
				goto done
			}
			if le < 0 {
				p = len(t)
			} else {
				p += le
			}
		default:
			goto done
		}
	}
done:
	if body >= 32 {
		sc.add("private-key", hs, p, prioStructural)
	}
}

func base64Count(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; isAlnum(c) || c == '+' || c == '/' {
			n++
		}
	}
	return n
}

func isB64URL(c byte) bool {
	return isAlnum(c) || c == '-' || c == '_'
}

// jwt matches header.payload[.signature[...]] where the header is base64url
// JSON ("eyJ"), every part is base64url and the payload is at least 10 bytes.
func (sc *scan) jwt(hs, he int) {
	t := sc.text
	if t[hs:he] != "eyJ" || hs > 0 && (isB64URL(t[hs-1]) || t[hs-1] == '.') {
		return
	}
	p := hs
	parts := 0
	var lens []int
	for {
		s := p
		for p < len(t) && isB64URL(t[p]) {
			p++
		}
		lens = append(lens, p-s)
		parts++
		if p+1 < len(t) && t[p] == '.' && isB64URL(t[p+1]) && parts < 5 {
			p++
			continue
		}
		break
	}
	for p < len(t) && t[p] == '=' {
		p++
	}
	if parts < 2 || lens[0] < 10 || lens[1] < 10 {
		return
	}
	payload := t[hs+lens[0]+1:]
	if !strings.HasPrefix(payload, "ey") && (parts < 3 || lens[2] < 16) {
		return
	}
	sc.add("jwt", hs, p, prioStructural)
}

// curl handles -u / --user user:password on a curl or wget command line.
func (sc *scan) curl(hs, he int) {
	t := sc.text
	if hs == 0 || (t[hs-1] != ' ' && t[hs-1] != '\t') || he >= len(t) || (t[he] != ' ' && t[he] != '=') {
		return
	}
	if t[hs:he] != "-u" && t[hs:he] != "--user" {
		return
	}
	p := skipBlanks(t, he+1)
	q := byte(0)
	if p < len(t) && (t[p] == '"' || t[p] == '\'') {
		q = t[p]
		p++
	}
	e := p
	for e < len(t) && !(t[e] <= ' ' || t[e] == '"' || t[e] == '\'') {
		e++
	}
	if q != 0 && (e >= len(t) || t[e] != q) {
		return
	}
	v := t[p:e]
	colon := strings.IndexByte(v, ':')
	if colon <= 0 {
		return
	}
	pw := v[colon+1:]
	if len(pw) < 3 || isPlaceholder(pw) || isPlaceholder(v) || isURLPlaceholder(pw) {
		return
	}
	line := lineContext(t, lineStart(t, hs), hs) // last: the costliest check
	if !strings.Contains(line, "curl") && !strings.Contains(line, "wget") {
		return
	}
	sc.add("curl-auth", p, e, prioStructural)
}

// passwordCommands take a password with -p: attached (mysql -pSECRET) or as
// the next argument (sshpass -p SECRET, docker login -p SECRET).
var passwordCommands = []string{
	"mysql", "mariadb", "sshpass", "docker login", "podman login", "nerdctl login",
	"helm registry login", "buildah login", "skopeo login", "oras login",
}

// shortPassFlag handles "-p" at [hs, he) on a command line of a tool that
// reads a password from it.
func (sc *scan) shortPassFlag(hs, he int) {
	t := sc.text
	if t[hs:he] != "-p" || hs == 0 || (t[hs-1] != ' ' && t[hs-1] != '\t') || he >= len(t) {
		return
	}
	p := he
	attached := t[p] != ' ' && t[p] != '\t'
	p = skipBlanks(t, p)
	if p >= len(t) {
		return
	}
	vs, ve, quoted := value(t, p, sepSpace, false, false, maxPasswordLen)
	if ve <= vs {
		return
	}
	v := t[vs:ve]
	if v[0] == '-' || len(v) < 4 || isPlaceholder(v) || (!quoted && isCodeLike(v)) || isWords(v) {
		return
	}
	line := lineContext(t, lineStart(t, hs), hs) // last: the costliest check
	cmd := ""
	for _, c := range passwordCommands {
		if strings.Contains(line, c) {
			cmd = c
			break
		}
	}
	if cmd == "" || attached && !strings.HasPrefix(cmd, "m") { // only mysql/mariadb take -pSECRET
		return
	}
	sc.add("cli-password", vs, ve, prioStructural)
}

// puttyKey redacts the base64 lines after "Private-Lines: N" in a PuTTY
// .ppk file.
func (sc *scan) puttyKey(hs, he int) {
	t := sc.text
	p := skipBlanks(t, he)
	n := 0
	for p < len(t) && '0' <= t[p] && t[p] <= '9' && n < 1000 {
		n = n*10 + int(t[p]-'0')
		p++
	}
	if n == 0 || p >= len(t) || (t[p] != '\n' && t[p] != '\r') {
		return
	}
	start := strings.IndexByte(t[p:], '\n')
	if start < 0 {
		return
	}
	start += p + 1
	end := start
	for i := 0; i < n && end < len(t); i++ {
		le := strings.IndexByte(t[end:], '\n')
		if le < 0 {
			le = len(t) - end
		}
		line := strings.TrimRight(t[end:end+le], "\r")
		if !isBase64(line) {
			break
		}
		end += le
		if i < n-1 && end < len(t) {
			end++
		}
	}
	if base64Count(t[start:end]) >= 32 {
		sc.add("private-key", start, end, prioStructural)
	}
}

// privateKeyEnd handles an END line of a private key block whose BEGIN is
// not in the text, as in the second piece of a note chunked through a key:
// it redacts the base64 lines (or JSON "\n"-escaped pieces) above it and
// the END line.
func (sc *scan) privateKeyEnd(hs, he int) {
	t := sc.text
	if t[hs:he] != "-----END" {
		return
	}
	le := strings.Index(t[he:min(len(t), he+80)], "-----")
	if le < 0 {
		return
	}
	label := strings.TrimSpace(t[he : he+le])
	if !strings.Contains(label, "PRIVATE KEY") {
		return
	}
	if n := len(sc.begins); n > 0 && strings.HasPrefix(t[sc.begins[n-1]:], "-----BEGIN "+label+"-----") &&
		!strings.Contains(t[sc.begins[n-1]+11:hs], "-----END") {
		return // the BEGIN handler covers it
	}
	end := he + le + 5
	// Same line: escaped body pieces before the END marker.
	p := hs
	for p > 0 && (isBase64Char(t[p-1]) && t[p-1] != '-' && t[p-1] != '_' || t[p-1] == '\\') {
		p--
	}
	// Whole base64 lines above.
	if p == lineStart(t, hs) {
		for p > 0 {
			ls := lineStart(t, p-1)
			line := strings.TrimRight(t[ls:p-1], "\r")
			if line == "" || !isBase64(strings.ReplaceAll(line, "-", "!")) {
				break
			}
			p = ls
		}
	}
	if base64Count(t[p:hs]) >= 32 {
		sc.add("private-key", p, end, prioStructural)
	}
}
