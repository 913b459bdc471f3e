package scrub

import (
	"regexp"
	"strings"
	"sync"
)

// tokenRule is a provider credential format: a literal anchor found by the
// automaton, and a regular expression for the whole token.
//
// When back is 0 the token starts at the anchor and the expression is matched
// anchored there. When back > 0 the anchor sits inside the token (":A" of a
// Telegram token) and the expression is searched in a window from back bytes
// before the anchor; a match must contain the anchor. When after > 0 the
// anchor is a context word ("discord") and the token must start within the
// after bytes that follow it.
//
// Every token must stand alone: where its first (last) byte is a letter or
// digit, the byte before (after) it must not be one. Its entropy (bits per
// byte, over the secret) must reach minBits (default 3.0) and it must not
// look like a placeholder.
type tokenRule struct {
	id      string
	anchors []string // case-sensitive unless fold
	fold    bool
	pattern string // RE2 syntax; if it has a group, group 1 is the secret
	back    int
	after   int
	maxLen  int // longest token in bytes (default 512)
	minBits float64
	check   func(tok string) bool // optional extra validation
	// pre, if set, is a cheap test of the bytes around an anchor at
	// text[hs:...] that must pass before the expression runs.
	pre func(text string, hs int) bool

	once sync.Once
	re   *regexp.Regexp
}

func (r *tokenRule) regexp() *regexp.Regexp {
	r.once.Do(func() {
		p := r.pattern
		if r.back == 0 && r.after == 0 {
			p = "^(?:" + p + ")"
		}
		r.re = regexp.MustCompile(p)
	})
	return r.re
}

// providerRules lists the provider formats. Sources: the issuers' token
// format documentation and the public gitleaks rule set (MIT), adjusted to
// accept future lengths where the issuer only fixes the prefix.
func providerRules() []*tokenRule {
	b62 := "[A-Za-z0-9]"
	return []*tokenRule{
		// OpenAI: legacy sk-<48>, project/service-account/admin keys.
		{id: "openai-api-key", anchors: []string{"sk-"}, pattern: `sk-(?:(?:proj|svcacct|admin|None)-)?[A-Za-z0-9_-]{20,}`,
			check: func(t string) bool {
				if strings.HasPrefix(t, "sk-ant-") || strings.HasPrefix(t, "sk-or-") {
					return false
				}
				lower, upper, digit, _ := charClasses(t[3:])
				return lower && upper && digit
			}},
		{id: "anthropic-api-key", anchors: []string{"sk-ant-"}, pattern: `sk-ant-[a-z]+[0-9]*-[A-Za-z0-9_-]{32,}`},
		{id: "openrouter-api-key", anchors: []string{"sk-or-"}, pattern: `sk-or-v[0-9]+-[A-Za-z0-9]{32,}`},

		// GitHub.
		{id: "github-pat", anchors: []string{"ghp_"}, pattern: `ghp_` + b62 + `{36,}`},
		{id: "github-oauth", anchors: []string{"gho_"}, pattern: `gho_` + b62 + `{36,}`},
		{id: "github-app-token", anchors: []string{"ghu_", "ghs_"}, pattern: `gh[us]_` + b62 + `{36,}`},
		{id: "github-refresh-token", anchors: []string{"ghr_"}, pattern: `ghr_` + b62 + `{36,}`},
		{id: "github-fine-grained-pat", anchors: []string{"github_pat_"}, pattern: `github_pat_[A-Za-z0-9_]{50,}`},

		// GitLab.
		{id: "gitlab-token", anchors: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "glft-", "glsoat-", "glagent-", "gloas-", "glffct-"},
			pattern: `gl(?:pat|dt|rt|ptt|cbt|imt|ft|soat|agent|oas|ffct)-[A-Za-z0-9_.-]{20,}`},
		{id: "gitlab-runner-registration-token", anchors: []string{"GR1348941"}, pattern: `GR1348941[A-Za-z0-9_-]{20,}`},

		// AWS access key ids; secret keys are found by their context (see kv).
		{id: "aws-access-key-id", anchors: []string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"}, pattern: `(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}`, minBits: 2.8},
		{id: "aws-bedrock-api-key", anchors: []string{"ABSK"}, pattern: `ABSK[A-Za-z0-9+/]{100,}={0,2}`},

		// Google.
		{id: "google-api-key", anchors: []string{"AIza"}, pattern: `AIza[A-Za-z0-9_-]{35}`},
		{id: "google-oauth-client-secret", anchors: []string{"GOCSPX-"}, pattern: `GOCSPX-[A-Za-z0-9_-]{24,}`},
		{id: "google-oauth-access-token", anchors: []string{"ya29."}, pattern: `ya29\.[A-Za-z0-9_-]{30,}`},
		{id: "google-oauth-refresh-token", anchors: []string{"1//0"}, pattern: `1//0[A-Za-z0-9_-]{30,}`},

		// Azure.
		{id: "azure-storage-account-key", anchors: []string{"accountkey=", "sharedaccesskey="}, fold: true,
			pattern: `(?i:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,}={0,2})`},
		{id: "azure-sas-signature", anchors: []string{"sig="}, pattern: `sig=([A-Za-z0-9%+/]{40,}(?:%3D|=){0,2})`},
		{id: "azure-ad-client-secret", anchors: []string{"Q~"}, back: 5, maxLen: 48, pre: digitBefore, pattern: `[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}`},

		// Stripe.
		{id: "stripe-secret-key", anchors: []string{"sk_", "rk_"}, pattern: `[sr]k_(?:live|test|prod)_` + b62 + `{10,}`},
		{id: "stripe-webhook-secret", anchors: []string{"whsec_"}, pattern: `whsec_` + b62 + `{24,}`},

		// Slack.
		{id: "slack-bot-token", anchors: []string{"xoxb-"}, pattern: `xoxb-[0-9]{8,14}-[A-Za-z0-9-]{10,}`},
		{id: "slack-user-token", anchors: []string{"xoxp-"}, pattern: `xoxp-[0-9]{8,14}-[A-Za-z0-9-]{10,}`},
		{id: "slack-token", anchors: []string{"xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe-", "xoxe."}, pattern: `xox(?:[aorse]-|e\.xox[bp]-)[A-Za-z0-9-]{10,}`},
		{id: "slack-app-token", anchors: []string{"xapp-"}, pattern: `xapp-[0-9]+-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+`},
		{id: "slack-webhook-url", anchors: []string{"hooks.slack.com/"}, back: 8, maxLen: 160, minBits: 3.5,
			pattern: `(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{20,}`},

		// Twilio, SendGrid, npm, PyPI, Hugging Face, Shopify, DigitalOcean.
		{id: "twilio-api-key", anchors: []string{"SK"}, pattern: `SK[0-9a-fA-F]{32}`},
		{id: "sendgrid-api-key", anchors: []string{"SG."}, pattern: `SG\.[A-Za-z0-9_=.-]{60,}`},
		{id: "npm-access-token", anchors: []string{"npm_"}, pattern: `npm_` + b62 + `{36}`},
		{id: "pypi-upload-token", anchors: []string{"pypi-AgE"}, pattern: `pypi-AgE[A-Za-z0-9_-]{50,}`},
		{id: "huggingface-access-token", anchors: []string{"hf_"}, pattern: `hf_` + b62 + `{30,}`, check: hfToken},
		{id: "huggingface-org-token", anchors: []string{"api_org_"}, pattern: `api_org_[A-Za-z]{30,}`, check: hfToken},
		{id: "shopify-access-token", anchors: []string{"shpat_", "shpca_", "shppa_", "shpss_"}, pattern: `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`},
		{id: "digitalocean-pat", anchors: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, pattern: `do[por]_v1_[a-f0-9]{64}`},

		// Mailgun, Mailchimp, Databricks, Linear, Atlassian, Doppler, Postman, Grafana.
		{id: "mailgun-api-key", anchors: []string{"key-"}, pattern: `key-[0-9a-f]{32}`},
		{id: "mailgun-signing-key", anchors: []string{"mailgun"}, fold: true, after: 60, maxLen: 60,
			pattern: `[0-9a-h]{32}-[0-9a-h]{8}-[0-9a-h]{8}`},
		{id: "mailchimp-api-key", anchors: []string{"-us"}, back: 33, maxLen: 40, pre: hexBefore(32), pattern: `[0-9a-f]{32}-us[0-9]{1,2}`},
		{id: "databricks-api-token", anchors: []string{"dapi"}, pattern: `dapi[a-f0-9]{32}(?:-[0-9]+)?`},
		{id: "linear-api-key", anchors: []string{"lin_api_", "lin_oauth_"}, pattern: `lin_(?:api_` + b62 + `{40}|oauth_[a-f0-9]{64})`},
		{id: "atlassian-api-token", anchors: []string{"ATATT3", "ATCTT3"}, pattern: `AT[AC]TT3[A-Za-z0-9_=-]{100,}`},
		{id: "doppler-api-token", anchors: []string{"dp."}, pattern: `dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{2,35}\.)?` + b62 + `{40,44}`},
		{id: "postman-api-key", anchors: []string{"PMAK-"}, pattern: `PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}`},
		{id: "grafana-service-account-token", anchors: []string{"glsa_"}, pattern: `glsa_` + b62 + `{32}_[A-Fa-f0-9]{8}`},
		{id: "grafana-cloud-api-token", anchors: []string{"glc_"}, pattern: `glc_[A-Za-z0-9+/]{32,}={0,2}`},
		{id: "grafana-api-key", anchors: []string{"eyJrIjoi"}, pattern: `eyJrIjoi` + b62 + `{70,}={0,2}`},

		// HashiCorp Vault and Terraform, age.
		{id: "vault-token", anchors: []string{"hvs.", "hvb.", "hvr."}, pattern: `hv[sbr]\.[A-Za-z0-9_-]{24,}`},
		{id: "terraform-cloud-token", anchors: []string{".atlasv1."}, back: 15, maxLen: 110, pre: alnumBefore, pattern: b62 + `{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}`},
		{id: "age-secret-key", anchors: []string{"AGE-SECRET-KEY-1"}, pattern: `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`},

		// Perplexity, Heroku, Telegram, Square, Sentry, Notion, Discord,
		// Groq, xAI, Replicate, Supabase, Tailscale.
		{id: "perplexity-api-key", anchors: []string{"pplx-"}, pattern: `pplx-` + b62 + `{40,}`},
		{id: "heroku-api-key", anchors: []string{"HRKU-"}, pattern: `HRKU-[A-Za-z0-9_-]{50,}`},
		{id: "telegram-bot-token", anchors: []string{":A"}, back: 17, maxLen: 60, pre: digitBefore, pattern: `[0-9]{5,16}:A[A-Za-z0-9_-]{34}`},
		{id: "square-access-token", anchors: []string{"sq0atp-", "sq0csp-", "EAAA"}, pattern: `(?:sq0atp-|sq0csp-|EAAA)[A-Za-z0-9_-]{22,}`},
		{id: "sentry-token", anchors: []string{"sntryu_", "sntrys_"}, pattern: `sntry(?:u_[a-f0-9]{64}|s_eyJ[A-Za-z0-9+/=_]{50,})`},
		{id: "notion-api-token", anchors: []string{"ntn_", "secret_"}, pattern: `(?:ntn_[0-9]{11}` + b62 + `{35,}|secret_` + b62 + `{43})`, check: func(t string) bool { return hasDigitAndLetter(t[4:]) }},
		{id: "discord-bot-token", anchors: []string{"discord"}, fold: true, after: 60, maxLen: 100, pre: dotsAfter(2, 7+160),
			pattern: `[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}`},
		{id: "discord-webhook-url", anchors: []string{"/api/webhooks/"}, back: 32, maxLen: 200, minBits: 3.5,
			pattern: `(?:https?://)?(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{60,}`},
		{id: "groq-api-key", anchors: []string{"gsk_"}, pattern: `gsk_` + b62 + `{48,}`},
		{id: "xai-api-key", anchors: []string{"xai-"}, pattern: `xai-` + b62 + `{70,}`},
		{id: "replicate-api-token", anchors: []string{"r8_"}, pattern: `r8_` + b62 + `{30,}`},
		{id: "supabase-token", anchors: []string{"sbp_", "sb_secret_"}, pattern: `(?:sbp_(?:v0_)?[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,})`},
		{id: "tailscale-key", anchors: []string{"tskey-"}, pattern: `tskey-[a-z]+-[A-Za-z0-9_-]{10,}`},
	}
}

func digitBefore(t string, hs int) bool { return hs > 0 && '0' <= t[hs-1] && t[hs-1] <= '9' }

func alnumBefore(t string, hs int) bool { return hs > 0 && isAlnum(t[hs-1]) }

// dotsAfter requires n dots within w bytes of the anchor.
func dotsAfter(n, w int) func(string, int) bool {
	return func(t string, hs int) bool { return strings.Count(t[hs:min(len(t), hs+w)], ".") >= n }
}

func hexBefore(n int) func(string, int) bool {
	return func(t string, hs int) bool { return hs >= n && isHex(t[hs-n:hs]) }
}

func hasDigitAndLetter(s string) bool {
	lower, upper, digit, _ := charClasses(s)
	return digit && (lower || upper)
}

// hfToken accepts Hugging Face bodies that mix case (as issued) or are
// random enough to be no word (4.0 bits per byte; runs of English words
// score about 3.9).
func hfToken(t string) bool {
	body := t[strings.LastIndexByte(t, '_')+1:]
	lower, upper, _, _ := charClasses(body)
	return lower && upper || entropy(body) >= 4.0
}

// matchToken runs rule r at an anchor found at [hs, he) of text and reports
// the secret's span. A token that runs past the rule's window (maxLen) is
// retried once with a window eight times as long.
func (r *tokenRule) matchToken(text string, hs, he int) (start, end int, ok bool) {
	if r.pre != nil && !r.pre(text, hs) {
		return 0, 0, false
	}
	maxLen := r.maxLen
	if maxLen == 0 {
		maxLen = 512
	}
	start, end, ok, cut := r.matchWindow(text, hs, he, maxLen)
	if !ok && cut {
		start, end, ok, _ = r.matchWindow(text, hs, he, 8*maxLen)
	}
	return start, end, ok
}

// matchWindow is matchToken with a window of maxLen bytes from the anchor;
// cut reports that a match ended at the window's edge before the text's.
func (r *tokenRule) matchWindow(text string, hs, he, maxLen int) (start, end int, ok, cut bool) {
	re := r.regexp()
	try := func(m []int, w0, w1 int) bool {
		if m[1]+w0 == w1 && w1 < len(text) {
			cut = true
		}
		start, end = spanOf(m, w0)
		return r.accept(text, start, end, m[0]+w0, m[1]+w0)
	}
	switch {
	case r.after > 0:
		w0 := he
		w1 := min(len(text), he+r.after+maxLen)
		if i := strings.Index(text[w0:w1], marker); i >= 0 {
			w1 = w0 + i // context does not reach past a redaction
		}
		for _, m := range re.FindAllStringSubmatchIndex(text[w0:w1], -1) {
			if m[0] > r.after {
				break
			}
			if try(m, w0, w1) {
				return start, end, true, cut
			}
		}
	case r.back > 0:
		w0 := max(0, hs-r.back)
		w1 := min(len(text), hs+maxLen)
		for _, m := range re.FindAllStringSubmatchIndex(text[w0:w1], -1) {
			if m[0]+w0 > hs || m[1]+w0 < he {
				continue
			}
			if try(m, w0, w1) {
				return start, end, true, cut
			}
		}
	default:
		if hs > 0 && isAlnum(text[hs]) && isAlnum(text[hs-1]) {
			return 0, 0, false, false
		}
		if text[hs:he] != r.anchorAt(text, hs, he) {
			return 0, 0, false, false
		}
		w1 := min(len(text), hs+maxLen)
		if m := re.FindStringSubmatchIndex(text[hs:w1]); m != nil && try(m, hs, w1) {
			return start, end, true, cut
		}
	}
	return 0, 0, false, cut
}

// anchorAt returns the anchor as written in the rule that matches text[hs:he]
// case-insensitively; for case-sensitive rules the caller compares it with
// the text.
func (r *tokenRule) anchorAt(text string, hs, he int) string {
	got := text[hs:he]
	if r.fold {
		return got
	}
	for _, a := range r.anchors {
		if strings.EqualFold(a, got) {
			return a
		}
	}
	return ""
}

func spanOf(m []int, off int) (int, int) {
	if len(m) >= 4 && m[2] >= 0 {
		return m[2] + off, m[3] + off
	}
	return m[0] + off, m[1] + off
}

// accept checks boundaries around the whole match [ms, me) and the secret
// [s, e) for entropy, placeholders and the rule's own check.
func (r *tokenRule) accept(text string, s, e, ms, me int) bool {
	// Word boundaries, where the token's own edge is a letter or digit.
	if ms > 0 && isAlnum(text[ms]) && isAlnum(text[ms-1]) {
		return false
	}
	if me < len(text) && isAlnum(text[me-1]) && isAlnum(text[me]) {
		return false
	}
	tok := text[s:e]
	minBits := r.minBits
	if minBits == 0 {
		minBits = 3.0
	}
	if entropy(tok) < minBits || longestRun(tok) >= 6 {
		return false
	}
	if containsFold(tok, "example") || containsFold(tok, "xxxx") || strings.Contains(tok, marker) {
		return false
	}
	return r.check == nil || r.check(tok)
}
