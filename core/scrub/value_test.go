package scrub

import (
	"math"
	"strings"
	"testing"
)

// entropyRef is the textbook Shannon entropy -sum(p log2 p), the slow
// reference for entropy's table-driven form.
func entropyRef(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[byte]int{}
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(len(s))
		h -= p * math.Log2(p)
	}
	return h
}

func TestEntropyMatchesReference(t *testing.T) {
	for _, s := range []string{
		"", "a", "aaaaaaaa", "ab", "abcd", "password", "ghp_" + fake(1, b62, 36),
		fake(2, hexLC, 64), fake(3, b64, 511), strings.Repeat("ab", 200),
	} {
		got, want := entropy(s), entropyRef(s)
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("entropy(%.20q) = %v, want %v", s, got, want)
		}
	}
	// Strings past the table are measured on their first 512 bytes.
	long := fake(4, b62, 2000)
	if got, want := entropy(long), entropyRef(long[:512]); math.Abs(got-want) > 1e-9 {
		t.Errorf("long: %v, want %v", got, want)
	}
}

func TestContainsFoldMatchesReference(t *testing.T) {
	for _, tc := range []struct{ s, sub string }{
		{"MyExample", "example"}, {"EXAMPLE", "example"}, {"exampl", "example"},
		{"xxXX", "xxxx"}, {"", "x"}, {"abc", ""}, {"YourKey", "your"}, {"yo ur", "your"},
	} {
		want := strings.Contains(strings.ToLower(tc.s), tc.sub)
		if got := containsFold(tc.s, tc.sub); got != want {
			t.Errorf("containsFold(%q, %q) = %v, want %v", tc.s, tc.sub, got, want)
		}
	}
}

func TestValueClassifiers(t *testing.T) {
	tests := []struct {
		name        string
		v           string
		placeholder bool
		identifier  bool
		password    bool
	}{
		{"random password", "Mjsh9h*BljGLta", false, false, true},
		{"weak but real", "hunter2", false, true, true},
		{"env reference", "${DB_PASSWORD}", true, false, false},
		{"shell var", "$TOKEN", true, false, false},
		{"angle placeholder", "<your-password-here>", true, false, false},
		{"stars", "********", true, false, false},
		{"changeme", "changeme", true, true, false},
		{"const name", "OPENAI_API_KEY", false, true, false},
		{"camel name", "accessToken", false, true, false},
		{"pascal type", "SecureString", false, true, false},
		{"kebab words", "read-only", false, true, false},
		{"word", "password", true, true, false},
		{"digits only", "12345678", false, false, false},
		{"redaction", "[REDACTED:jwt]", true, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := isPlaceholder(tc.v); got != tc.placeholder {
				t.Errorf("isPlaceholder(%q) = %v", tc.v, got)
			}
			if got := isIdentifierLike(tc.v); got != tc.identifier {
				t.Errorf("isIdentifierLike(%q) = %v", tc.v, got)
			}
			if got := looksLikePassword(tc.v); got != tc.password {
				t.Errorf("looksLikePassword(%q) = %v", tc.v, got)
			}
		})
	}
}

func TestClassifyKey(t *testing.T) {
	tests := []struct {
		key, prev string
		want      keyKind
	}{
		{"DB_PASSWORD", "", kindPassword},
		{"dbPassword", "", kindPassword},
		{"pwd", "", kindPassword},
		{"PASS", "", kindNone},
		{"SMTP_PASS", "", kindPassword},
		{"client_secret", "", kindSecret},
		{"identitytoken", "", kindSecret},
		{"maxTokens", "", kindNone},
		{"token_endpoint", "", kindNone},
		{"api_key", "", kindSecret},
		{"AccountKey", "", kindSecret},
		{"key", "encryption", kindSecret},
		{"key", "", kindBareKey},
		{"primary_key", "", kindNone},
		{"PublicKeyToken", "", kindNone},
		{"OPENAI_KEY", "", kindWeakKey},
		{"password_file", "", kindNone},
		{"author", "", kindNone},
	}
	for _, tc := range tests {
		if got := classifyKey(tc.key, tc.prev); got != tc.want {
			t.Errorf("classifyKey(%q, %q) = %v, want %v", tc.key, tc.prev, got, tc.want)
		}
	}
}
