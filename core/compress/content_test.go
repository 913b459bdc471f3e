package compress

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/shell"
)

func TestContentByCommand(t *testing.T) {
	for _, c := range []struct {
		cmd   string
		kind  contentKind
		path  string
		first int
	}{
		{"cat core/config/config.go", contentFile, "core/config/config.go", 1},
		{"cat -n main.go", contentFile, "main.go", 1},
		{"sed -n 120,340p README.md", contentFile, "README.md", 120},
		{"sed -n '5p' a.txt", contentFile, "a.txt", 5},
		{"sed 's/a/b/' a.txt", contentFile, "a.txt", 0},
		{"head -n 200 x.py", contentFile, "x.py", 1},
		{"tail -n +40 x.py", contentFile, "x.py", 40},
		{"tail -n 50 x.py", contentFile, "x.py", 0},
		{"cd core && cat config.go", contentFile, "", 0},
		{"cat a.go b.go", contentFile, "", 0},
		{"cat x.go | head -50", contentFile, "", 0},
		{"jq . package.json", contentFile, "package.json", 0},
		{"FOO=1 sudo cat /etc/hosts", contentFile, "/etc/hosts", 1},
		{"git diff HEAD~6", contentDiff, "", 0},
		{"git -C repo show abc123", contentDiff, "", 0},
		{"git log -p -n 3", contentDiff, "", 0},
		{"git diff | head -100", contentDiff, "", 0},
		{"git log --oneline", contentFile, "", 0},
		{"git status", contentNone, "", 0},
		{"diff -u a b", contentDiffTool, "", 0},
		{"cat x.go | grep func", contentNone, "", 0},
		{"cat <<'EOF' > x\nhi\nEOF", contentNone, "", 0},
		{"go test ./...", contentNone, "", 0},
		{"echo 'a | cat b'", contentNone, "", 0},
		{"cat runtime/proc.go 2>/dev/null || echo fail", contentFile, "", 0},
		{"sed -n 1000,5000p f; echo EXIT=$?", contentFile, "", 0},
		{"cat f | sed s/x/y/", contentFile, "", 0},
		{"sed -n '1000,5000p;6000,7000p' f", contentFile, "f", 0},
		{"sed -n -e 100,2000p -e 3000,5000p f", contentFile, "f", 0},
		{"cat a && cat b", contentFile, "", 0},
		{"cat < core/compress/rank.go", contentFile, "core/compress/rank.go", 1},
		{"tr -d '\\r' < notes.txt", contentFile, "notes.txt", 0},
		{"cat core/x.go && git status --short", contentFile, "", 0},
		{"ls; cat rank.go", contentFile, "", 0},
		{"cat rank.go; go test ./...", contentNone, "", 0},
		{"bash -c 'cat core/x.go'", contentFile, "", 0},
		{"sh -c 'go test ./...'", contentNone, "", 0},
		{"expand -t 4 main.go", contentFile, "", 0}, // "4" reads as a second file: no path, still content
		{"expand main.go", contentFile, "main.go", 1},
		{"cut -c1-120 main.go", contentFile, "main.go", 1},
		{"jq . < mid.json", contentFile, "mid.json", 0},
		{"cat mid.json | jq .", contentFile, "", 0},
		{"python3 -m json.tool mid.json", contentFile, "", 0},
		{"cat mid.json | python3 -m json.tool", contentFile, "", 0},
		{"python3 -m json.tool", contentNone, "", 0},
		{"sort < list.txt", contentNone, "", 0},
		{"git show HEAD~3:docs/ARCHITECTURE.md", contentFile, "", 0},
		{"git show --no-patch v1.2:go.mod", contentFile, "", 0},
		{"git show HEAD --stat", contentDiff, "", 0},
		{`find . -name "*.go" | xargs cat`, contentFile, "", 0},
		{`git ls-files '*.md' | xargs -n1 head -n 40 | head -500`, contentFile, "", 0},
		{`find . | xargs grep -n TODO`, contentNone, "", 0},
		{`for f in a.go b.go; do cat "$f"; done`, contentFile, "", 0},
		{`if [ -f x.go ]; then cat x.go; fi`, contentFile, "", 0},
		{`while read f; do cat "$f"; done < list`, contentFile, "", 0},
		{`for f in *.go; do go vet $f; done`, contentNone, "", 0},
	} {
		got := contentByCommand(c.cmd)
		if got.kind != c.kind || got.path != c.path || got.firstLine != c.first {
			t.Errorf("contentByCommand(%q) = %+v, want kind %d path %q first %d", c.cmd, got, c.kind, c.path, c.first)
		}
	}
}

func TestContentOfShape(t *testing.T) {
	diff := "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
	if k := contentOf(Request{Command: "./show-patch.sh", Stdout: diff}).kind; k != contentDiff {
		t.Errorf("a diff from any command: kind %d", k)
	}
	if k := contentOf(Request{Command: "git diff --stat", Stdout: " x | 2 +-\n 1 file changed\n"}).kind; k != contentNone {
		t.Errorf("git diff --stat: kind %d", k)
	}
	if k := contentOf(Request{Command: "diff a b", Stdout: "1c1\n< a\n---\n> b\n"}).kind; k != contentClassicDiff {
		t.Errorf("normal diff format: kind %d", k)
	}
	log := strings.Repeat("2026-11-30T12:00:00Z INFO served /x status=200\n", 80)
	if k := contentOf(Request{Command: "cat server.txt", Stdout: log}).kind; k != contentNone {
		t.Errorf("a log read with cat: kind %d", k)
	}
	if k := contentOf(Request{Command: "tail -n 100 app.log", Stdout: "plain\n"}).kind; k != contentNone {
		t.Errorf("a .log file: kind %d", k)
	}
}

func TestNumberedListing(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		b.WriteString(itoa(i) + "\tline " + itoa(i) + "\n")
	}
	if !isNumberedListing(b.String()) {
		t.Error("cat -n listing not recognised")
	}
	if isNumberedListing("1 apple\n5 pears\n9 figs\n12 kiwis\n" + strings.Repeat("3 x\n", 20)) {
		t.Error("a count listing taken for a numbered file")
	}
}

func TestHunkBodiesFollowCounts(t *testing.T) {
	// A removed line that reads like a file header stays in its hunk.
	lines := strings.Split("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,2 @@\n a\n--- not a header\n b\n@@ -9 +8 @@\n-c\n+d", "\n")
	segs := diffSegments(lines)
	var bodies [][2]int
	for _, s := range segs {
		if s.kind == segBody {
			bodies = append(bodies, [2]int{s.first, s.last})
		}
	}
	if len(bodies) != 2 || bodies[0] != [2]int{4, 6} || bodies[1] != [2]int{8, 9} {
		t.Fatalf("bodies %v", bodies)
	}
}

// FuzzShellPipelines: any command line splits without a panic, and every
// byte of its words comes from the command's text.
func FuzzShellPipelines(f *testing.F) {
	for _, s := range []string{"cd a && cat b | head -5", `echo "a|b" 'c;d' e\ f`, "x 2>&1 | tee y; z &", "'unterminated", "\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		for _, p := range shell.Pipelines(cmd) {
			for _, st := range p {
				if len(st) == 0 {
					t.Fatal("empty stage")
				}
				for _, w := range commandWords(st) {
					for i := 0; i < len(w); i++ {
						if strings.IndexByte(cmd, w[i]) < 0 {
							t.Fatalf("word %q has byte %q, not in %q", w, w[i], cmd)
						}
					}
				}
				contentByCommand(cmd)
			}
		}
	})
}

// TestLatin1FileIsContent: a file in a legacy 8-bit encoding (each
// accented letter a U+FFFD) read with cat is the file's lines, cut between
// regions like any file, and the header counts its lines.
func TestLatin1FileIsContent(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "ligne %d: \uFFFDl\uFFFDve \uFFFDt\uFFFD \uFFFD No\uFFFDl, d\uFFFDj\uFFFD re\uFFFDu\n", i+1)
	}
	req := Request{Command: "cat notes-latin1.txt", Stdout: b.String()}
	if src := contentOf(req); src.kind != contentFile || src.path != "notes-latin1.txt" {
		t.Fatalf("contentOf = %+v, want the file's lines", src)
	}
	ex := Condense(context.Background(), req, Options{}, testSavedPath)
	if strings.Contains(ex.Stdout, "binary") {
		t.Errorf("latin-1 text shown as binary:\n%.400s", ex.Stdout)
	}
	if head, _, _ := strings.Cut(ex.Stdout, "\n"); !strings.Contains(head, "2,000 lines") && !strings.Contains(head, "2000 lines") {
		t.Errorf("header %q does not count 2,000 lines", head)
	}
	if !strings.Contains(ex.Stdout, "sed -n ") {
		t.Errorf("the cut does not say how to read the rest:\n%.600s", ex.Stdout)
	}
}

// TestLongContentLineNamed: a line of a content output too long to show
// (minified JSON, a blob in a diff) is replaced by a marker that names its
// line and the command that prints it whole.
func TestLongContentLineNamed(t *testing.T) {
	long := `{"data":"` + strings.Repeat("abcdefghij", 4000) + `"}`
	for _, c := range []struct {
		req   Request
		saved string
		want  string
	}{
		{Request{Command: "cat data.json", Stdout: "[\n" + long + "\n]\n"}, "", "[… line 2 of 40011 bytes cut, whole with sed -n '2,2p' data.json; it begins: {\"data\":\"abc"},
		{Request{Command: "cat data.json", Stdout: "[\n" + long + "\n]\n"}, testSavedPath, "whole with sed -n '2,2p' " + testSavedPath + ";"},
		{Request{Command: "git diff", Stdout: "diff --git a/d.json b/d.json\n--- a/d.json\n+++ b/d.json\n@@ -1 +1 @@\n-{}\n+" + long + "\n"}, "", "[… line 6 of 40012 bytes cut, whole with (git diff) | sed -n '6,6p'; it begins: +{"},
	} {
		ex := Condense(context.Background(), c.req, Options{}, c.saved)
		if !strings.Contains(ex.Stdout, c.want) {
			t.Errorf("%q: extract lacks %q:\n%.800s", c.req.Command, c.want, ex.Stdout)
		}
	}
}

// TestFileWithDatesIsContent: a file whose lines hold dates (a CSV
// export, a Go fixture, git blame, JSON records) is the file's content; a
// file whose lines open with a timestamp or a level is a log.
func TestFileWithDatesIsContent(t *testing.T) {
	rows := func(f func(i int) string) string {
		var b strings.Builder
		for i := range 200 {
			b.WriteString(f(i) + "\n")
		}
		return b.String()
	}
	for _, c := range []struct {
		name, cmd, out string
		log            bool
	}{
		{"csv, date first", "cat users.csv", rows(func(i int) string {
			return fmt.Sprintf("2026-01-%02dT10:00:00Z,user%d,%d,active", i%28+1, i, i*7)
		}), false},
		{"csv, date inside", "head -n 300 export.csv", rows(func(i int) string {
			return fmt.Sprintf("%d,user%d,2026-01-%02d 10:00:00,ok", i, i, i%28+1)
		}), false},
		{"go fixture", "cat fixture_test.go", rows(func(i int) string {
			return fmt.Sprintf("\t{\"2026-01-%02dT10:00:00Z\", %d, \"ok\"},", i%28+1, i)
		}), false},
		{"git blame", "git blame main.go", rows(func(i int) string {
			return fmt.Sprintf("a1b2c3d4 (Ann Dev 2026-11-%02d 10:00:00 +0000 %3d) \tx := %d", i%28+1, i+1, i)
		}), false},
		{"json records", "jq -c '.[]' events.json", rows(func(i int) string {
			return fmt.Sprintf(`{"ts":"2026-01-%02dT10:00:00Z","kind":"click","n":%d}`, i%28+1, i)
		}), false},
		{"app log", "cat server.txt", rows(func(i int) string {
			return fmt.Sprintf("2026-12-02T10:00:%02dZ INFO request path=/a/%d status=200", i%60, i)
		}), true},
		{"syslog", "cat messages", rows(func(i int) string {
			return fmt.Sprintf("Dec  2 10:00:%02d host sshd[%d]: Accepted key for dev", i%60, 1000+i)
		}), true},
		{"glog", "cat trace.txt", rows(func(i int) string {
			return fmt.Sprintf("I1202 10:00:%02d.123456 %d server.go:42] served", i%60, 7)
		}), true},
		{"json log", "tail -n 200 events.jsonl", rows(func(i int) string {
			return fmt.Sprintf(`{"time":"2026-12-02T10:00:%02dZ","level":"info","msg":"ok","n":%d}`, i%60, i)
		}), true},
		{"log path", "cat app.log", rows(func(i int) string { return fmt.Sprintf("request %d served", i) }), true},
	} {
		got := contentOf(Request{Command: c.cmd, Stdout: c.out}).kind == contentNone
		if got != c.log {
			t.Errorf("%s (%s): read as a log %v, want %v", c.name, c.cmd, got, c.log)
		}
	}
}

// TestHugeHunkShowsItsHead: a diff whose one hunk is larger than the
// budget (a new file of 1,400 lines) shows the hunk's head as one region
// and names the rest, instead of headers alone.
func TestHugeHunkShowsItsHead(t *testing.T) {
	var b strings.Builder
	b.WriteString("diff --git a/big.go b/big.go\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/big.go\n@@ -0,0 +1,1400 @@\n")
	for i := range 1400 {
		fmt.Fprintf(&b, "+\tvalue%04d := compute(%d) // a line of the new file\n", i, i)
	}
	req := Request{Command: "git diff --cached", Stdout: b.String()}
	ex := Condense(context.Background(), req, Options{}, testSavedPath)
	for _, want := range []string{"+++ b/big.go\n@@ -0,0 +1,1400 @@\n+\tvalue0000 := compute(0)", "+\tvalue0100 := compute(100)", "; read them: sed -n '"} {
		if !strings.Contains(ex.Stdout, want) {
			t.Errorf("extract lacks %q:\n%.1500s", want, ex.Stdout)
		}
	}
	if len(ex.Stdout) < 10000 {
		t.Errorf("extract is %d bytes: the hunk's head should fill the budget", len(ex.Stdout))
	}
	checkWholeSegments(t, "huge hunk", req, contentOf(req), ex)
}

// TestClassicDiffCut: diff(1)'s normal format (diff -r) and context format
// (diff -c) too large to pass keep every file and hunk header and cut only
// between hunk bodies.
func TestClassicDiffCut(t *testing.T) {
	var normal, ctxdiff strings.Builder
	for f := range 80 {
		fmt.Fprintf(&normal, "diff -r t1/pkg/file%02d.go t2/pkg/file%02d.go\n", f, f)
		fmt.Fprintf(&ctxdiff, "diff -rc t1/pkg/file%02d.go t2/pkg/file%02d.go\n*** t1/pkg/file%02d.go\t2026-12-02 10:00:00\n--- t2/pkg/file%02d.go\t2026-12-02 10:00:01\n", f, f, f, f)
		for h := range 3 {
			at := 10 + h*40
			fmt.Fprintf(&normal, "%d,%dc%d,%d\n", at, at+4, at, at+4)
			fmt.Fprintf(&ctxdiff, "***************\n*** %d,%d ****\n", at, at+4)
			for k := range 5 {
				fmt.Fprintf(&normal, "< \told%d := compute(%d, %d) // file %d\n", k, f, h, f)
				fmt.Fprintf(&ctxdiff, "! \told%d := compute(%d, %d) // file %d\n", k, f, h, f)
			}
			normal.WriteString("---\n")
			fmt.Fprintf(&ctxdiff, "--- %d,%d ----\n", at, at+4)
			for k := range 5 {
				fmt.Fprintf(&normal, "> \tnew%d := compute(%d, %d) // file %d\n", k, f, h, f)
				fmt.Fprintf(&ctxdiff, "! \tnew%d := compute(%d, %d) // file %d\n", k, f, h, f)
			}
		}
	}
	for _, c := range []struct{ cmd, out string }{{"diff -r t1 t2", normal.String()}, {"diff -rc t1 t2", ctxdiff.String()}} {
		req := Request{Command: c.cmd, Stdout: c.out}
		src := contentOf(req)
		if src.kind != contentClassicDiff {
			t.Fatalf("%s: kind %d, want the classic diff", c.cmd, src.kind)
		}
		ex := Condense(context.Background(), req, Options{}, testSavedPath)
		checkWholeSegments(t, c.cmd, req, src, ex)
		if !strings.Contains(ex.Stdout, "t2/pkg/file79.go") {
			t.Errorf("%s: the last file's header is gone:\n%.2000s", c.cmd, ex.Stdout)
		}
	}
}

// TestWordDiffKeepsHunkHeaders: git diff --word-diff prints body lines
// with no prefix; a cut keeps every file and hunk header and bodies whole.
func TestWordDiffKeepsHunkHeaders(t *testing.T) {
	var b strings.Builder
	for f := range 40 {
		fmt.Fprintf(&b, "diff --git a/pkg/f%02d.go b/pkg/f%02d.go\nindex 1111111..2222222 100644\n--- a/pkg/f%02d.go\n+++ b/pkg/f%02d.go\n@@ -10,30 +10,30 @@ func F%d() {\n", f, f, f, f, f)
		for k := range 30 {
			if k%7 == 3 {
				fmt.Fprintf(&b, "\tx%d := [-compute(%d)-]{+computeAll(%d, opts)+} // file %d\n", k, k, k, f)
			} else {
				fmt.Fprintf(&b, "\ty%d := keep(%d) // unchanged line of file %d\n", k, k, f)
			}
		}
	}
	req := Request{Command: "git diff --word-diff HEAD~12", Stdout: b.String()}
	ex := Condense(context.Background(), req, Options{}, testSavedPath)
	if got := strings.Count(ex.Stdout, "\n@@ -10,30 +10,30 @@"); got != 40 {
		t.Errorf("%d of 40 hunk headers kept:\n%.1500s", got, ex.Stdout)
	}
	checkWholeSegments(t, "word diff", req, contentOf(req), ex)
}
