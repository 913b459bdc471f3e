package scrub

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func checkIdempotent(t *testing.T, s *Scrubber, name, in string) {
	t.Helper()
	once, _ := s.Scrub(in)
	twice, fs := s.Scrub(once)
	if twice != once {
		t.Errorf("%s: second Scrub changed the text; findings %+v\n once  %q\n twice %q", name, fs, once, twice)
	}
}

// adversarialInputs are texts where a first Scrub changes the context a
// second one sees: markers next to keys, multi-line redactions between a
// context word and a value, secrets inside secrets.
func adversarialInputs() map[string]string {
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + fake(400, b64, 64) + "\n-----END RSA PRIVATE KEY-----"
	adversarial := map[string]string{
		"marker as key":           "[REDACTED:bearer-token]: ghijk123456789Xy",
		"marker inside value":     "token=ab[REDACTED:jwt]cd1234567890XYZ",
		"colon after bearer":      "Authorization: Bearer abcdef1234567890:ghijk123456789",
		"netrc across a key":      "login jane " + key + "\npassword Zk8mLq2Xp7",
		"key then password":       key + " password: Zk8mLq2Xp7",
		"repeat inside word":      "password=Hunter2Hunter2 and xHunter2Hunter2x",
		"url with token user":     "https://ghp_" + fake(401, b62, 36) + ":x-oauth-basic@github.com/o/r",
		"adjacent tokens":         "ghp_" + fake(402, b62, 36) + "-AKIA" + fake(403, upNum, 16),
		"jwt then word":           "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc_def-ghi_jkl_mno_pqr.more",
		"nested quotes":           `"password": "\"Zk8mLq2Xp7\""`,
		"truncated key in json":   `"private_key": "-----BEGIN PRIVATE KEY-----\n` + fake(404, b64, 80) + `\n"`,
		"informal after marker":   "pw is [REDACTED:password-assignment] and pw is Kx9#Lm2pQz",
		"basic after marker":      "Basic [REDACTED:basic-auth-header] Basic dXNlcjpwYXNzd29yZDEyMw==",
		"password for x is":       "the password for " + key + " is Kx9#Lm2pQz",
		"curl with marker user":   "curl -u [REDACTED:x]:Zk8mLq2Xp7Q https://x",
		"kv value touches marker": "SECRET=[REDACTED:jwt]" + fake(405, b62, 20),
		"context word far away":   "discord " + "ghp_" + fake(406, b62, 80) + " " + "MT" + fake(407, b62, 24) + "." + fake(408, b62, 6) + "." + fake(409, b62, 30),
	}
	return adversarial
}

func TestScrubIdempotent(t *testing.T) {
	s := New()
	for name, in := range adversarialInputs() {
		checkIdempotent(t, s, name, in)
	}
	for _, p := range positives() {
		checkIdempotent(t, s, p.name, strings.Replace(p.text, "{S}", p.secret, 1))
	}
	note, err := os.ReadFile(filepath.Join(secretsDir(t), "notes_mixed.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkIdempotent(t, s, "mixed note", string(note))
	// All positives and the note at once, so secrets meet each other.
	var all strings.Builder
	for _, p := range positives() {
		all.WriteString(strings.Replace(p.text, "{S}", p.secret, 1))
		all.WriteString("\n")
	}
	all.Write(note)
	checkIdempotent(t, s, "everything", all.String())
	for name, in := range hostileInputs(8 << 10) {
		checkIdempotent(t, s, name, in)
	}
}

func TestScrubIdempotentOnRealText(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 8 MiB of the shared corpus")
	}
	prose, code := loadBenchText(t)
	checkIdempotent(t, New(), "prose", prose)
	checkIdempotent(t, New(), "code", code)
}
