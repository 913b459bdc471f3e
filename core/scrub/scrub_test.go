package scrub

import (
	"math/rand/v2"
	"strings"
	"testing"
)

const (
	b62   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	hexLC = "0123456789abcdef"
	b64   = b62 + "+/"
	b64u  = b62 + "-_"
	upNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	bech  = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
	lower = "abcdefghijklmnopqrstuvwxyz0123456789"
)

// fake returns n random bytes from alphabet, seeded by seed so that every
// run tests the same strings.
func fake(seed uint64, alphabet string, n int) string {
	r := rand.New(rand.NewPCG(seed, 0x5c7ab))
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

type positive struct {
	name   string
	text   string // "{S}" marks where secret goes
	secret string
}

func positives() []positive {
	return []positive{
		// Providers.
		{"openai legacy", "OPENAI_API_KEY={S}", "sk-" + fake(1, b62, 48)},
		{"openai project", "key: {S}", "sk-proj-" + fake(2, b62+"-_", 74) + "T3BlbkFJ" + fake(3, b62, 74)},
		{"openai service account", "openai.api_key = \"{S}\"", "sk-svcacct-" + fake(4, b62+"-_", 58) + "T3BlbkFJ" + fake(5, b62, 58)},
		{"openai admin", "{S}", "sk-admin-" + fake(6, b62, 60)},
		{"anthropic admin", "x-api-key: {S}", "sk-ant-admin01-" + fake(7, b62+"-_", 93) + "AA"},
		{"github pat in url", "https://{S}@github.com/o/r.git", "ghp_" + fake(8, b62, 36)},
		{"github oauth", "token {S}", "gho_" + fake(9, b62, 36)},
		{"gitlab pat", "PRIVATE-TOKEN: {S}", "glpat-" + fake(10, b62+"-_", 20)},
		{"gitlab routable pat", "GITLAB_TOKEN={S}", "glpat-" + fake(11, b62, 36) + ".01.0w1a2b3c4"},
		{"gitlab runner", "runner token {S}", "glrt-" + fake(12, b62, 20)},
		{"aws key id in ini", "aws_access_key_id={S}", "AKIA" + fake(13, upNum, 16)},
		{"aws secret in credentials file", "aws_secret_access_key = {S}", fake(14, b64, 40)},
		{"aws secret json", `{"SecretAccessKey": "{S}"}`, fake(15, b64, 40)},
		{"aws session token", "AWS_SESSION_TOKEN={S}", "IQoJb3JpZ2luX2VjE" + fake(16, b64, 200)},
		{"google api key", "const k = '{S}';", "AIza" + fake(17, b62+"-_", 35)},
		{"google client secret json", `"client_secret":"{S}"`, "GOCSPX-" + fake(18, b62+"-_", 28)},
		{"azure ad client secret", "AZURE_CLIENT_SECRET={S}", fake(19, b62, 3) + "8Q~" + fake(20, b62+"_~.-", 34)},
		{"azure ad secret bare", "secret value {S} copied from portal", fake(21, b62, 3) + "7Q~" + fake(22, b62, 34)},
		{"azure storage key", "AccountName=x;AccountKey={S};", fake(23, b64, 86) + "=="},
		{"azure sas", "https://acct.blob.core.windows.net/c?sv=2022-11-02&sig={S}", fake(24, b62, 40) + "%3D"},
		{"stripe test", "Stripe.apiKey = \"{S}\";", "sk_test_" + fake(25, b62, 99)},
		{"stripe restricted", "{S}", "rk_live_" + fake(26, b62, 24)},
		{"slack user token", "xoxp: {S}", "xoxp-" + fake(27, "0123456789", 12) + "-" + fake(28, "0123456789", 12) + "-" + fake(29, "0123456789", 13) + "-" + fake(30, hexLC, 32)},
		{"slack webhook", "webhook https://hooks.slack.com/services/{S}", "T" + fake(31, upNum, 8) + "/B" + fake(32, upNum, 10) + "/" + fake(33, b62, 24)},
		{"twilio account token", "TWILIO_AUTH_TOKEN={S}", fake(34, hexLC, 32)},
		{"sendgrid", "SENDGRID_API_KEY='{S}'", "SG." + fake(35, b62+"-_", 22) + "." + fake(36, b62+"-_", 43)},
		{"npm in npmrc", "//npm.pkg.github.com/:_authToken={S}", "npm_" + fake(37, b62, 36)},
		{"pypi", "[pypi]\n  username = __token__\n  password = {S}", "pypi-AgEIcHlwaS5vcmc" + fake(38, b62+"-_", 120)},
		{"hugging face", "HF_TOKEN={S}", "hf_" + fake(39, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34)},
		{"shopify", "X-Shopify-Access-Token: {S}", "shpat_" + fake(40, hexLC, 32)},
		{"digitalocean oauth", "{S}", "doo_v1_" + fake(41, hexLC, 64)},
		{"mailgun private", "MAILGUN_API_KEY={S}", "key-" + fake(42, hexLC, 32)},
		{"mailgun signing", "mailgun webhook signing key: {S}", fake(43, hexLC, 32) + "-" + fake(44, hexLC, 8) + "-" + fake(45, hexLC, 8)},
		{"mailchimp bare", "use {S} for the list", fake(46, hexLC, 32) + "-us21"},
		{"databricks", "DATABRICKS_TOKEN={S}", "dapi" + fake(47, hexLC, 32) + "-2"},
		{"linear", "LINEAR_API_KEY={S}", "lin_api_" + fake(48, b62, 40)},
		{"atlassian", "{S}", "ATATT3x" + fake(49, b62+"-_", 185)},
		{"atlassian legacy by context", "JIRA_API_TOKEN={S}", fake(50, b62, 24)},
		{"doppler service token", "{S}", "dp.st.dev." + fake(51, b62, 40)},
		{"postman", "{S}", "PMAK-" + fake(52, hexLC, 24) + "-" + fake(53, hexLC, 34)},
		{"grafana cloud", "{S}", "glc_" + fake(54, b64, 60) + "=="},
		{"grafana legacy api key", "Bearer {S}", "eyJrIjoi" + fake(55, b62, 80) + "=="},
		{"vault batch", "{S}", "hvb." + fake(56, b62+"-_", 140)},
		{"vault legacy by context", "export VAULT_TOKEN={S}", "s." + fake(57, b62, 24)},
		{"terraform in credentials.tfrc", "token = \"{S}\"", fake(58, lower, 14) + ".atlasv1." + fake(59, b62, 67)},
		{"age", "{S}", "AGE-SECRET-KEY-1" + fake(60, bech, 58)},
		{"perplexity", "{S}", "pplx-" + fake(61, b62, 48)},
		{"heroku legacy by context", "HEROKU_API_KEY=" + "{S}", fake(62, hexLC, 8) + "-" + fake(63, hexLC, 4) + "-" + fake(64, hexLC, 4) + "-" + fake(65, hexLC, 4) + "-" + fake(66, hexLC, 12)},
		{"telegram bare", "bot {S}", "7" + fake(67, "0123456789", 9) + ":AA" + fake(68, b62+"-_", 33)},
		{"telegram short id", "{S}", fake(153, "0123456789", 6) + ":A" + fake(154, b62+"-_", 34)},
		{"sendgrid one run", "{S}", "SG." + fake(155, b62+"-_=", 66)},
		{"square", "SQUARE_ACCESS_TOKEN={S}", "EAAA" + fake(69, b62+"-_", 60)},
		{"square oauth secret", "{S}", "sq0csp-" + fake(70, b62+"-_", 43)},
		{"sentry org", "{S}", "sntrys_eyJpYXQiO" + fake(71, b64, 120) + "_" + fake(72, b64, 43)},
		{"notion new", "NOTION_TOKEN={S}", "ntn_" + fake(73, "0123456789", 11) + fake(74, b62, 35)},
		{"notion legacy", "{S}", "secret_" + fake(75, b62, 43)},
		{"discord in env", "DISCORD_TOKEN={S}", "MT" + fake(76, b62, 24) + "." + fake(77, b62+"-_", 6) + "." + fake(78, b62+"-_", 38)},
		{"discord webhook", "https://discord.com/api/webhooks/123456789012345678/{S}", fake(79, b62+"-_", 68)},
		{"groq", "GROQ_API_KEY={S}", "gsk_" + fake(80, b62, 52)},
		{"xai", "{S}", "xai-" + fake(81, b62, 80)},
		{"replicate", "{S}", "r8_" + fake(82, b62, 37)},
		{"supabase secret", "{S}", "sb_secret_" + fake(83, b62+"-_", 32)},
		{"supabase service role jwt", "SUPABASE_SERVICE_ROLE_KEY={S}", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + fake(84, b62, 100) + "." + fake(85, b62+"-_", 43)},
		{"tailscale api", "{S}", "tskey-api-" + fake(86, b62, 16) + "-" + fake(87, b62, 32)},
		{"openrouter", "{S}", "sk-or-v1-" + fake(88, hexLC, 64)},

		// Generic: URLs.
		{"postgres", "DATABASE_URL=postgres://app:{S}@db.internal:5432/app", fake(89, b62, 20)},
		{"postgresql jdbc-like", "postgresql://user:{S}@host/db", fake(90, b62+"!*", 16)},
		{"amqp", "amqp://guest:{S}@rabbit:5672/", fake(91, b62, 18)},
		{"mongodb", "mongodb://admin:{S}@mongo1,mongo2/?replicaSet=rs0", fake(92, b62, 18)},
		{"rediss", "rediss://default:{S}@cache.upstash.io:6379", fake(93, b62, 32)},
		{"ftp user pass", "ftp://backup:{S}@files.example.net/dump", fake(94, b62, 14)},
		{"mssql ado", "Data Source=db;Initial Catalog=x;User ID=sa;Pwd={S};", fake(95, b62+"#!", 14)},
		{"jdbc query password", "jdbc:mysql://db:3306/app?user=root&password={S}&ssl=true", fake(96, b62, 16)},

		// Generic: headers and tokens.
		{"bearer curl", `curl -H "Authorization: Bearer {S}" https://api.x.io`, fake(97, b62+"-._~", 40)},
		{"bearer lowercase header", "authorization: bearer {S}", fake(98, b62, 32)},
		{"bearer in prose", "I used Bearer {S} to call it", fake(99, b62, 32)},
		{"basic in curl", `curl -H 'Authorization: Basic {S}' x`, "dXNlcjpwYXNzd29yZDEyMw=="},
		{"api key header", "X-API-Key: {S}", fake(100, b62, 32)},
		{"jwt none alg", "token={S}", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0."},

		// Generic: assignments.
		{"yaml password quoted", "db:\n  password: \"{S}\"", fake(101, b62+"@#$%^&", 16)},
		{"json password", `{"user":"app","password":"{S}"}`, fake(102, b62+"!", 12)},
		{"ini passwd", "[db]\npasswd = {S}", fake(103, b62, 12)},
		{"compound pass", "SMTP_PASS={S}", fake(140, b62, 12)},
		{"env quoted with symbols", "SMTP_PASSWORD='{S}'", "pa$$w0rd!X&y"},
		{"go const", `const dbPass = "{S}"`, fake(104, b62, 14)},
		{"python kwarg", `connect(host="db", password="{S}")`, fake(105, b62, 14)},
		{"js object", `{ apiKey: "{S}" }`, fake(106, b62, 32)},
		{"toml token", `token = "{S}"`, fake(107, b62, 40)},
		{"xml password", "<password>{S}</password>", fake(108, b62, 14)},
		{"cli flag", "mytool --password {S} --verbose", fake(109, b62, 14)},
		{"cli flag equals", "deploy --api-token={S}", fake(110, b62, 32)},
		{"netrc", "machine api.example.com login jane password {S}", fake(111, b62, 14)},
		{"netrc multiline", "machine api.example.com\n  login jane\n  password {S}", fake(112, b62, 14)},
		{"informal password is", "the router password is {S} btw", "Tr0ub4dor&3"},
		{"passphrase", "gpg passphrase: {S}", fake(113, b62, 20)},
		{"client secret hex", "CLIENT_SECRET={S}", fake(114, hexLC, 40)},
		{"signing key base64", "signing key: {S}", fake(115, b64, 43) + "="},
		{"bare key base64", "key: {S}", fake(156, b64, 43) + "="},
		{"webhook secret", "WEBHOOK_SECRET={S}", fake(116, b62, 32)},
		{"markdown bold", "**Password:** {S}", fake(117, b62, 14)},
		{"docker auths", `"auths": {"https://index.docker.io/v1/": {"auth": "{S}"}}`, "Ym9iOmh1bnRlcjJodW50ZXIy"},
		{"json escaped", `"{\"password\": \"{S}\"}"`, fake(118, b62, 14)},

		// Private keys.
		{"rsa key", "{S}", "-----BEGIN RSA PRIVATE KEY-----\n" + fake(119, b64, 64) + "\n" + fake(120, b64, 64) + "\n-----END RSA PRIVATE KEY-----"},
		{"ec key", "{S}", "-----BEGIN EC PRIVATE KEY-----\n" + fake(121, b64, 64) + "\n-----END EC PRIVATE KEY-----"},
		{"encrypted pem headers", "{S}", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,ABCDEF0123456789\n\n" + fake(122, b64, 64) + "\n-----END RSA PRIVATE KEY-----"},
		{"pgp key", "{S}", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n" + fake(123, b64, 64) + "\n=" + fake(124, b64, 4) + "\n-----END PGP PRIVATE KEY BLOCK-----"},
		{"truncated key", "{S}\n\nmore notes", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + fake(125, b64, 70) + "\n" + fake(126, b64, 70)},
		{"curl user", "curl --user deploy:{S} https://x", fake(127, b62, 14)},
		{"key tail without begin", "## chunk two\n{S}\nmore text", fake(149, b64, 64) + "\n" + fake(150, b64, 40) + "\n-----END OPENSSH PRIVATE KEY-----"},
		{"escaped key tail", `x": "{S}\n"`, fake(151, b64, 64) + `\n` + fake(152, b64, 12) + `\n-----END PRIVATE KEY-----`},

		// Harder shapes.
		{"env value with list symbols", "DB_PASSWORD={S}\nNEXT=1", "ab,cD;9x)z!" + fake(128, b62, 6)},
		{"python bytes literal", `SECRET_KEY = b"{S}"`, fake(129, b64, 44)},
		{"aws configure prompt", "AWS Secret Access Key [None]: {S}", fake(130, b64, 40)},
		{"password for x is", "the password for the guest wifi is {S} today", "k2" + fake(131, b62, 10)},
		{"hf lowercase", "{S}", "hf_" + fake(132, "abcdefghijklmnopqrstuvwxyz", 34)},
		{"mailgun signing bare", "mailgun: {S}", fake(133, hexLC, 32) + "-" + fake(134, hexLC, 8) + "-" + fake(135, hexLC, 8)},
		{"slack webhook whole url", "post to {S} when done", "https://hooks.slack.com/services/T" + fake(136, upNum, 8) + "/B" + fake(137, upNum, 10) + "/" + fake(138, b62, 24)},
		{"dotnet config", `<add key="ClearTextPassword" value="{S}" />`, fake(141, b62+"#!", 14)},
		{"mysql attached", "mysql -h db -u root -p{S} app", fake(142, b62, 12)},
		{"sshpass", "sshpass -p '{S}' ssh deploy@host", fake(143, b62+"#", 12)},
		{"docker login", "docker login -u bot -p {S} ghcr.io", fake(144, b62, 16)},
		{"secret key base", "SECRET_KEY_BASE={S}", fake(145, hexLC, 128)},
		{"putty", "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 2\n{S}\nPrivate-MAC: 00", fake(146, b64, 64) + "\n" + fake(147, b64, 20)},
		{"diceware", "vault passphrase: {S}", "correct-horse-battery-staple"},
		{"google refresh token", "{S}", "1//0" + fake(148, b62+"-_", 60)},
		{"stripe key longer than the window", "{S}", "sk_live_" + fake(157, b62, 700)},
		{"discord webhook whole url", "{S}", "https://discord.com/api/webhooks/1234567890123456789/" + fake(139, b62+"-_", 68)},
	}
}

func TestFindPositives(t *testing.T) {
	s := New()
	for _, c := range positives() {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(c.text, "{S}", c.secret, 1)
			at := strings.Index(text, c.secret)
			fs := s.Find(text)
			if !covered(fs, at, at+len(c.secret)) {
				t.Errorf("secret %q in %q not covered; findings %+v", c.secret, text, fs)
			}
		})
	}
}

func TestScrubLeavesNegatives(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"ulid", "event 01ARZ3NDEKTSV4RRFFQ69G5FAV created"},
		{"uuid uppercase", "id: 3F2504E0-4F89-11D3-9A0C-0305E82C3301"},
		{"package-lock integrity", `"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="`},
		{"yarn lock", `  integrity sha1-2oV1rjYMd6wZ0DNJlnhDlFPioG+=`},
		{"cargo lock", `checksum = "a8c5b6f1c8f2e2d5e8b6b5a7c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5"`},
		{"pip hash", `requests==2.31.0 --hash=sha256:58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f`},
		{"docker digest", "FROM golang@sha256:4cd0e21a9a0795a14ec9aa5f0e7d1abff0492565770e43eafdf1e3e8afed1f33"},
		{"arn secret", "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf"},
		{"arn kms key", "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"},
		{"ssh rsa public", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7" + fake(200, b64, 300) + " jane@host"},
		{"ssh cert", "ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9wZW5zc2guY29t" + fake(201, b64, 200)},
		{"url no creds", "see https://user@example.com/path?x=1#frag"},
		{"url with port", "http://127.0.0.1:8080/api"},
		{"placeholder angle", "OPENAI_API_KEY=<your-key>"},
		{"placeholder env", "export GITHUB_TOKEN=${GITHUB_TOKEN}"},
		{"placeholder dollar", "password: $DB_PASSWORD"},
		{"placeholder x", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"placeholder stars", "password: ********"},
		{"aws docs example", "AKIAIOSFODNN7EXAMPLE"},
		{"placeholder template", `token: "{{ secrets.GITHUB_TOKEN }}"`},
		{"placeholder changeme", "POSTGRES_PASSWORD=changeme"},
		{"url placeholder", "postgres://user:password@localhost/db"},
		{"url env placeholder", "postgres://app:${DB_PASS}@db/app"},
		{"code reads secret", `apiKey := os.Getenv("STRIPE_KEY")`},
		{"code member", "password = settings.DATABASE_PASSWORD"},
		{"python environ", `token = os.environ["GH_TOKEN"]`},
		{"ts type", "  password: string;"},
		{"js shorthand", "const client = new Client({ token: accessToken });"},
		{"prose token", "The token expires after one hour; refresh it with the refresh token."},
		{"prose password", "Your password must be at least 12 characters long."},
		{"prose password is", "The password is case-sensitive."},
		{"prose basic", "Basic authentication sends the credentials in every request."},
		{"prose bearer", "A bearer token grants access to whoever holds it."},
		{"max tokens", "max_tokens: 4096"},
		{"token count", "token_count = 1234567890123"},
		{"key names", "primary_key: id\nsort_key: created_at"},
		{"public key token", "PublicKeyToken=31bf3856ad364e35"},
		{"keyboard", "Press the key: Enter"},
		{"registry key", "- Key: HKLM\\Software\\Microsoft\\ServerMigration"},
		{"bare key with a sha", "key: 3f62a7decff0fb197786ed1e618cbfde"},
		{"secret name k8s", "secretName: my-tls-secret"},
		{"password file", "password_file: /run/secrets/db_password"},
		{"git sha in prose", "reverted 3f62a7decff0fb197786ed1e618cbfde1e053fc7 and 8b1118b376c313ed420e5133ba91307817ed52c2"},
		{"sk prefix words", "ask-me-anything sk-learn task_id risk_live_demo"},
		{"hex color", "#ff00ff and #1e90ff"},
		{"begin line in prose", "If your key begins with `-----BEGIN OPENSSH PRIVATE KEY-----`, convert it."},
		{"certificate tail", fake(206, b64, 64) + "\n-----END CERTIFICATE-----"},
		{"end line in prose", "The file ends with -----END RSA PRIVATE KEY----- on its own line."},
		{"certificate", "-----BEGIN CERTIFICATE-----\n" + fake(202, b64, 64) + "\n-----END CERTIFICATE-----"},
		{"base64 image", "![x](data:image/png;base64," + fake(203, b64, 400) + "==)"},
		{"docker user flag", "docker run -u 1000:1000 image"},
		{"curl no password", "curl -u admin: https://x"},
		{"redaction marker", "password = [REDACTED:password-assignment]"},
		{"pem placeholder body", "-----BEGIN PRIVATE KEY-----\nMIIE...\n-----END PRIVATE KEY-----"},
		{"publishable key", "STRIPE_PUBLISHABLE_KEY=pk_live_" + fake(204, b62, 24)},
		{"public env", "NEXT_PUBLIC_API_KEY_NAME=" + fake(205, b62, 24)},
		{"password prose for is", "The password for your account is stored in the vault."},
		{"mkdir -p", "mkdir -p build/out && mysqldump --help"},
		{"short chain", "password: read-only"},
		{"go test output", "=== RUN   TestTitleTable/c\n    --- PASS: TestTitleTable/c (0.00s)\nPASS\nok  \tx/y\t0.01s"},
		{"empty", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, fs := New().Scrub(tc.text)
			if out != tc.text {
				t.Errorf("changed:\n in  %q\n out %q\n %+v", tc.text, out, fs)
			}
		})
	}
}

func TestScrubReplacesWithRuleMarker(t *testing.T) {
	tok := "ghp_" + fake(300, b62, 36)
	in := "token one " + tok + " and again " + tok
	out, fs := New().Scrub(in)
	want := "token one [REDACTED:github-pat] and again [REDACTED:github-pat]"
	if out != want {
		t.Errorf("Scrub = %q, want %q", out, want)
	}
	if len(fs) != 2 || fs[0].Start != strings.Index(in, tok) || fs[1].End != len(in) {
		t.Errorf("findings %+v", fs)
	}
}

func TestRepeatedSecretIsRedactedEverywhere(t *testing.T) {
	pw := fake(301, b62, 16)
	in := "DB_PASSWORD=" + pw + "\nlater I typed " + pw + " into the prompt"
	out, _ := New().Scrub(in)
	if strings.Contains(out, pw) {
		t.Errorf("second occurrence leaked: %q", out)
	}
}

func TestFindMergesOverlaps(t *testing.T) {
	// The key assignment and the provider rule both match the same bytes;
	// the merged finding is named after the provider rule.
	tok := "ghp_" + fake(302, b62, 36)
	fs := New().Find("GITHUB_TOKEN=" + tok)
	if len(fs) != 1 || fs[0].Rule != "github-pat" {
		t.Fatalf("findings %+v, want one github-pat", fs)
	}
}

func TestDefaultIsShared(t *testing.T) {
	got := make(chan *Scrubber, 4)
	for i := 0; i < cap(got); i++ {
		go func() { got <- Default() }()
	}
	first := <-got
	for i := 1; i < cap(got); i++ {
		if s := <-got; s != first || s == nil {
			t.Fatalf("Default returned %p and %p", first, s)
		}
	}
}

func TestRuleIDsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, id := range RuleIDs() {
		if seen[id] {
			t.Errorf("duplicate rule id %q", id)
		}
		seen[id] = true
		for i := 0; i < len(id); i++ {
			if !isRuleIDChar(id[i]) {
				t.Errorf("rule id %q has %q, which markers cannot hold", id, id[i])
			}
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	s := New()
	text := "GITHUB_TOKEN=ghp_" + fake(303, b62, 36) + "\npassword: " + fake(304, b62, 14)
	want, _ := s.Scrub(text)
	done := make(chan string)
	for i := 0; i < 8; i++ {
		go func() {
			out, _ := s.Scrub(text)
			done <- out
		}()
	}
	for i := 0; i < 8; i++ {
		if got := <-done; got != want {
			t.Errorf("concurrent Scrub = %q, want %q", got, want)
		}
	}
}
