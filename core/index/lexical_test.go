package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/store"
)

// The keyword search cases of issue 16, through the real pipeline (walk,
// chunk, store) on real notes of ../shared where the corpus has the case,
// and on small notes written here where it does not.

// lexicalVault is the tasks demo vault and the edge files (testVault),
// plus real notes of corpora/large and corpora/linked under large/ and
// linked/, plus the notes of extra.
func lexicalVault(tb testing.TB, extra map[string]string) *store.Store {
	tb.Helper()
	v, db := testVault(tb)
	large := filepath.Join(shared, "corpora/large")
	var real []string
	// Every CMFCToolBar* class note: cmfctoolbar-class.md holds
	// EnableQuickCustomization, cmfctoolbarmenubutton-class.md its
	// stem-mate EnableQuickCustomize.
	m, _ := filepath.Glob(filepath.Join(large, "cpp-docs/docs/mfc/reference/cmfctoolbar*.md"))
	real = append(real, m...)
	for _, p := range []string{
		"windows-powershell-docs/docset/winserver2025-ps/ConfigCI/New-CIPolicyRule.md",                               // plug-in, never plugin
		"windows-powershell-docs/docset/winserver2025-ps/RemoteDesktop/New-RDPersonalVirtualDesktopPatchSchedule.md", // plugin, never plug-in
		"windows-powershell-docs/docset/winserver2025-ps/FileServerResourceManager/Start-FsrmStorageReport.md",       // e-mail, never email
		"windows-powershell-docs/docset/winserver2025-ps/DnsServer/Export-DnsServerDnsSecPublicKey.md",               // email, never e-mail
		"cpp-docs/docs/c-runtime-library/reference/mbstowcs-s-mbstowcs-s-l.md",
		"cpp-docs/docs/c-runtime-library/reference/mbstowcs-mbstowcs-l.md",
	} {
		real = append(real, filepath.Join(large, p))
	}
	for _, p := range real {
		rel, _ := filepath.Rel(large, p)
		copyFile(tb, p, filepath.Join(v, "large", rel))
	}
	copyFile(tb, filepath.Join(shared, "corpora/linked/flancia-garden/music I like.md"), filepath.Join(v, "linked", "music I like.md"))
	testkit.WriteTree(tb, v, extra)
	mustRun(tb, opts(v, db))
	return check(tb, db)
}

func copyFile(tb testing.TB, src, dst string) {
	tb.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// keywordNotes returns the notes of the top k keyword hits for q, best
// first, each once, and the hits' chunk texts.
func keywordNotes(tb testing.TB, st *store.Store, q string, k int) (notes []string, texts []string) {
	tb.Helper()
	ctx := context.Background()
	hits, err := st.KeywordHits(ctx, q, k, store.DefaultColumnWeights)
	if err != nil {
		tb.Fatalf("KeywordHits(%q): %v", q, err)
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	cs, err := st.Chunks(ctx, ids)
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range cs {
		if !slices.Contains(notes, c.Path) {
			notes = append(notes, c.Path)
		}
		texts = append(texts, c.HeadingContext+"\n"+c.Section+"\n"+c.Text)
	}
	return notes, texts
}

var lexicalNotes = map[string]string{
	// Omnisearch#331: the only note with the phrase, and notes with both
	// words apart and "self" more often.
	"books/will-self.md": "# Umbrella\n\nA novel by Will Self, set in a London mental hospital.\n",
	"books/self-help.md": "# Self help\n\nSelf-help books promise self-improvement; self esteem and self care will follow, they say.\n",
	"books/selfish.md":   "# The Selfish Gene\n\nThe self replicating gene: the will to survive of each self copying unit, self by self.\n",
	"books/willpower.md": "# Willpower\n\nYour will is a muscle. Self control, self discipline, self denial.\n",
	// Omnisearch#225: A-Company written two ways.
	"work/acme.md":   "# Suppliers\n\nOur contract with A-Company renews in March.\n",
	"work/joined.md": "# Invoices\n\nThe invoice from ACompany arrived late again.\n",
	// claude-mem#3810: ヒーロー (hero) and コーヒー (coffee) share ー and ヒ.
	// Before ー stayed in its run, the query's lone ヒ matched every
	// コーヒー and ranked the coffee note first.
	"ja/hero.md":   "# 町\n\n彼は町のヒーローだ。困っている人がいれば、いつでも助けに来てくれる。子供たちはみんな彼に憧れている。雨の日も風の日も、町を見回っている。\n",
	"ja/coffee.md": "# 朝のコーヒー\n\n毎朝コーヒーを飲む。コーヒーは苦いが、目が覚める。アイスコーヒーよりホットコーヒーが好きだ。\n",
	"ja/robot.md":  "# ロボット\n\nロボットが工場で働いている。ロボットは疲れないし、文句も言わない。ロボットの時代だ。\n",
	// basic-memory#1376: Latin and digits inside Chinese text.
	"zh/deploy.md": "# 部署\n\n我们使用Docker部署服务，配置文件是config.yaml，端口8080。\n",
}

func TestExactFormRanksFirst(t *testing.T) {
	st := lexicalVault(t, lexicalNotes)
	notes, _ := keywordNotes(t, st, "EnableQuickCustomization", 10)
	if len(notes) == 0 || notes[0] != "large/cpp-docs/docs/mfc/reference/cmfctoolbar-class.md" {
		t.Errorf("EnableQuickCustomization: notes %q, want cmfctoolbar-class.md first", notes)
	}
	notes, _ = keywordNotes(t, st, "EnableQuickCustomize", 10)
	if len(notes) == 0 || notes[0] != "large/cpp-docs/docs/mfc/reference/cmfctoolbarmenubutton-class.md" {
		t.Errorf("EnableQuickCustomize: notes %q, want cmfctoolbarmenubutton-class.md first", notes)
	}
}

func TestQuotedPhraseRanksFirst(t *testing.T) {
	st := lexicalVault(t, lexicalNotes)
	for _, q := range []string{`"will self"`, `“Will Self”`, `"will self" novel`} {
		notes, _ := keywordNotes(t, st, q, 10)
		if len(notes) == 0 || notes[0] != "books/will-self.md" {
			t.Errorf("%s: notes %q, want books/will-self.md first", q, notes)
		}
	}
}

func TestJoinedAndSplitForms(t *testing.T) {
	st := lexicalVault(t, lexicalNotes)
	const ps = "large/windows-powershell-docs/docset/winserver2025-ps/"
	for _, tc := range []struct{ q, want string }{
		{"plugin", ps + "ConfigCI/New-CIPolicyRule.md"},
		{"plug-in", ps + "RemoteDesktop/New-RDPersonalVirtualDesktopPatchSchedule.md"},
		{"email", ps + "FileServerResourceManager/Start-FsrmStorageReport.md"},
		{"e-mail", ps + "DnsServer/Export-DnsServerDnsSecPublicKey.md"},
		{"acompany", "work/acme.md"},
		{"A-Company", "work/joined.md"},
	} {
		notes, _ := keywordNotes(t, st, tc.q, 500)
		if !slices.Contains(notes, tc.want) {
			t.Errorf("%s: notes %q lack %s", tc.q, notes, tc.want)
		}
	}
}

// TestNoLoneFragmentHits: the "s" of mbstowcs_s is searched only inside
// the identifier's phrase, so every hit holds mbstowcs.
func TestNoLoneFragmentHits(t *testing.T) {
	st := lexicalVault(t, lexicalNotes)
	for _, q := range []string{"mbstowcs_s", "mbstowcs_s buffer"} {
		notes, texts := keywordNotes(t, st, q, 100)
		if len(notes) == 0 {
			t.Fatalf("%s: no hits", q)
		}
		for i, text := range texts {
			low := strings.ToLower(text)
			if !strings.Contains(low, "mbstowcs") && !strings.Contains(low, "buffer") {
				t.Errorf("%s: hit %d matches no term but a fragment: %.80q", q, i, text)
			}
		}
	}
}

func TestEveryScript(t *testing.T) {
	st := lexicalVault(t, lexicalNotes)
	for _, tc := range []struct{ q, want string }{
		{"ヒーロー", "ja/hero.md"},
		{"コーヒー", "ja/coffee.md"},
		{"Docker", "zh/deploy.md"},
		{"config.yaml", "zh/deploy.md"},
		{"8080", "zh/deploy.md"},
		{"部署", "zh/deploy.md"},
		{"グラスホッパーズ", "linked/music I like.md"}, // real katakana with ー
		{"파워볼", "linked/music I like.md"},      // real Hangul
	} {
		notes, _ := keywordNotes(t, st, tc.q, 10)
		if len(notes) == 0 || notes[0] != tc.want {
			t.Errorf("%s: notes %q, want %s first", tc.q, notes, tc.want)
		}
	}
}

// TestEmojiAreTokens: 📅 finds every note of the tasks demo vault that
// holds it, and nothing else.
func TestEmojiAreTokens(t *testing.T) {
	st := lexicalVault(t, nil)
	var want []string
	root := filepath.Join(shared, "corpora/obsidian/tasks-demo-vault")
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "📅") {
			rel, _ := filepath.Rel(root, p)
			want = append(want, filepath.ToSlash(filepath.Join("tasks", rel)))
		}
		return nil
	})
	if len(want) < 2 {
		t.Fatalf("the tasks vault has %d notes with 📅", len(want))
	}
	notes, texts := keywordNotes(t, st, "📅", 1000)
	slices.Sort(want)
	slices.Sort(notes)
	if !slices.Equal(notes, want) {
		t.Errorf("📅 finds %d notes %q, want the %d that hold it %q", len(notes), notes, len(want), want)
	}
	for _, text := range texts {
		if !strings.Contains(text, "📅") {
			t.Errorf("hit without 📅: %.80q", text)
		}
	}
}
