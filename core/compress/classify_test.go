package compress

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		line string
		want kind
	}{
		{"", kindBlank},
		{"parser.c:55:29: error: ‘undeclared_var’ undeclared", kindError},
		{"parser.c:12:25: warning: comparison of integer expressions", kindWarning},
		{"parser.c:55:29: note: each undeclared identifier", kindExcerpt},
		{"internal/store/store.go:6:2: \"os\" imported and not used", kindError},
		{"   12 |         if (toks[i].len >= -1)", kindExcerpt},
		{"      |                         ^~", kindExcerpt},
		{"--- FAIL: TestDiv (<dur>)", kindError},
		{"FAIL\texample.com/calc\t<dur>", kindError},
		{"ok  \tstrings\t<dur>", kindSummary},
		{"PASS", kindSummary},
		{"    calc_test.go:36: Div(-7, 2) = -3, want -4", kindTestLog},
		{"panic: runtime error: index out of range [-1]", kindError},
		{"\t/home/dev/proj/gofail/calc.go:27", kindFrame},
		{"example.com/calc.(*Stack).Pop(...)", kindFrame},
		{"Traceback (most recent call last):", kindError},
		{"  File \"/home/dev/proj/py/worker.py\", line 24, in process", kindFrame},
		{"KeyError: 'config_key'", kindError},
		{"JobError: job 7: bad config in /tmp/<tmp>/job-7.dat", kindError},
		{"    at discount (/home/dev/proj/npmfail/lib/invoice.js:7:35)", kindFrame},
		{"/home/dev/proj/npmfail/test/run.js:17", kindFrame},
		{"  ✗ discount unknown code", kindError},
		{"18 passing, 2 failing", kindSummary},
		{"added 77 packages in <dur>", kindSummary},
		{"0 upgraded, 37 newly installed, 0 to remove and 141 not upgraded.", kindSummary},
		{"test result: FAILED. 5 passed; 2 failed; 0 ignored", kindSummary},
		{"===== 1 failed, 3 passed in <dur> =====", kindSummary},
		{"not ok 2 - parses config", kindError},
		{"ok 3 - case 0", kindPlain},
		{"# pass 26", kindSummary},
		{" --> src/lib.rs:2:41", kindFrame},
		{"find: ‘/usr/local/go/src/cmd/nosuchtool’: No such file or directory", kindError},
		{"/usr/local/go/src/cmd/compile/internal/types2/errors.go", kindPlain},
		{"warning: config missing: inventory.json; using defaults", kindWarning},
		{"make: *** [Makefile:5: util.o] Error 1", kindError},
		{"Reading package lists...", kindPlain},
		{"/tmp/x.py:11: DeprecationWarning: old api", kindFrame},
		{"  warnings.warn(UserWarning('x'))", kindWarning},
		{"curl: (6) Could not resolve host: example.invalid", kindError},
		{"npm error code E404", kindError},
		{"E: Unable to locate package foo", kindError},
		{"E: Package 'x' has no installation candidate", kindError},
		{"W: Some index files failed to download", kindWarning},
		{"make[1]: *** [Makefile:3: all] Error 2", kindError},
	} {
		if got := classify(c.line, false); got != c.want {
			t.Errorf("classify(%q) = %d, want %d", c.line, got, c.want)
		}
	}
	if got := classify("src/errors.go:12: // TODO: fix this error", true); got != kindPlain {
		t.Errorf("data line classified %d, want plain", got)
	}
}

func TestIsDataCommand(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{`grep -rn "TODO" cmd/compile/internal`, true},
		{`find /usr -name "*.go"`, true},
		{`git log --stat -n 80`, true},
		{`git -C repo show HEAD`, true},
		{`git status --porcelain`, false},
		// The stdout of a filter of standard input is the lines of the
		// stage before it.
		{`go test ./... | grep FAIL`, false},
		{`go test -count=1 -v ./... | cat`, false},
		{`make 2>&1 | tail -n 100`, false},
		{`go test ./... 2>&1 | tee test.log`, false},
		{`cat notes.txt | grep -i todo`, true},
		{`ps aux | grep -v grep | sort -k 3`, true},
		{`find . -name "*.go" | xargs cat`, true},
		{"pip list -v", true}, {"pip install -r requirements.txt", false}, {"npm ls --all", true}, {"npm test", false},
		{"kubectl get pods -A", true}, {"kubectl apply -f x.yaml", false}, {"go list -m all", true}, {"go test ./...", false},
		{`git log -p | head -n 400`, true},
		{`grep -e FAIL test.log`, true},
		{`go test ./... | grep -e FAIL`, false},
		{`journalctl -u app | tail -f`, false},
		// Short status lines after the real command do not make it data.
		{`make -k -j2; echo "make exited $?"`, false},
		{`go vet -x ./... ; echo exit=$?`, false},
		{`cd repo && git diff HEAD~2; echo done`, true},
		{`echo $(git diff)`, true},
		{`cd x`, false},
		{`cd x && LC_ALL=C sudo ls -la`, true},
		{`go test -v ./...`, false},
		{`npm run test`, false},
		{`grep x file; make`, false},
		{``, false},
	} {
		if got := isDataCommand(c.cmd); got != c.want {
			t.Errorf("isDataCommand(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

// TestErrorMarkMatchesReference checks hasErrorMark against errorMarkRe on
// every real line and a few edge cases.
func TestErrorMarkMatchesReference(t *testing.T) {
	lines := append(allCaseLines(t), "E", "E  ", "E   x", "E\t\tassert", "12) x", "1)  x", "FAILx", "FAIL_", "FAIL:", "not okay", "  ✗ x", "***", "** x")
	for _, l := range lines {
		if got, want := hasErrorMark(l), errorMarkRe.MatchString(l); got != want {
			t.Errorf("hasErrorMark(%q) = %v, errorMarkRe says %v", l, got, want)
		}
	}
}

func TestFileLineMatchesReference(t *testing.T) {
	lines := append(allCaseLines(t), "a.py:5:", "a.py:5: x", ".py:5: x", "a.toolong:5: x", "a.py:x: y", "a.py:5:x", "dir/a.go:12: msg", "a.b.c:1: z", "a.p-y:1: z")
	for _, l := range lines {
		if got, want := isFileLine(l), fileLineRe.MatchString(l); got != want {
			t.Errorf("isFileLine(%q) = %v, fileLineRe says %v", l, got, want)
		}
	}
}

// libraryFrameRe is the reference definition of isLibraryFrame.
var libraryFrameRe = regexp.MustCompile(`/usr/(?:local/)?(?:lib/)?go/src/|/go/pkg/mod/|\bnode:internal\b|node_modules/|<frozen |/site-packages/|/dist-packages/|/lib/python\d|/rustc/|/\.cargo/registry/|\b_testmain\.go:|/\.rustup/|^\s*at (?:java|javax|jdk|sun|kotlin|scala)\.|^(?:runtime|testing|reflect|internal/\w+)\.`)

var libraryFrameEdges = []string{"/usr/local/lib/go/src/x.go:1", "/home/go/src/x.go", "at node:internal/x", "xnode:internal", "node:internalx",
	"/usr/lib/python3/x.py", "/usr/lib/pythonx", "a_testmain.go:1", " _testmain.go:1", "\tat java.lang.X", "  at javax.y", "at jdk", "runtime.gopanic(...)",
	"internal/poll.F()", "internal/.x", "testing.tRunner", " runtime.x", "x/node_modules/y", "<frozen importlib>", "/root/.cargo/registry/x", "/x/.rustup/y"}

func TestLibraryFrameMatchesReference(t *testing.T) {
	for _, l := range append(allCaseLines(t), libraryFrameEdges...) {
		if got, want := isLibraryFrame(l), libraryFrameRe.MatchString(l); got != want {
			t.Errorf("isLibraryFrame(%q) = %v, libraryFrameRe says %v", l, got, want)
		}
	}
}

func FuzzLibraryFrame(f *testing.F) {
	for _, s := range libraryFrameEdges {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isLibraryFrame(s), libraryFrameRe.MatchString(s); got != want {
			t.Fatalf("isLibraryFrame(%q) = %v, libraryFrameRe says %v", s, got, want)
		}
	})
}

// TestGoTestJSON: go test -json's events are classified by what they
// carry, so a failing run keeps its failure, the failing test's event and
// the package verdict.
func TestGoTestJSON(t *testing.T) {
	var b strings.Builder
	ev := func(action, test, output string) {
		out := ""
		if output != "" {
			out = `,"Output":` + strconv.Quote(output)
		}
		tst := ""
		if test != "" {
			tst = `,"Test":"` + test + `"`
		}
		fmt.Fprintf(&b, `{"Time":"2026-12-02T14:03:26.%06dZ","Action":"%s","Package":"example.com/calc"%s%s}`+"\n", b.Len()%999999, action, tst, out)
	}
	for i := range 300 {
		name := fmt.Sprintf("TestAdd%03d", i)
		ev("run", name, "")
		ev("output", name, "=== RUN   "+name+"\n")
		if i == 170 {
			ev("output", name, "    calc_test.go:97: Add(2,2) = 5, want 4\n")
			ev("output", name, "--- FAIL: "+name+" (0.00s)\n")
			ev("fail", name, "")
			continue
		}
		ev("output", name, "--- PASS: "+name+" (0.00s)\n")
		ev("pass", name, "")
	}
	ev("output", "", "FAIL\n")
	ev("output", "", "FAIL\texample.com/calc\t0.058s\n")
	ev("fail", "", "")
	for _, c := range []struct {
		line string
		want kind
	}{
		{`{"Time":"x","Action":"output","Package":"p","Test":"TestA","Output":"--- FAIL: TestA (0.00s)\n"}`, kindError},
		{`{"Time":"x","Action":"fail","Package":"p","Test":"TestA","Elapsed":0}`, kindError},
		{`{"Time":"x","Action":"fail","Package":"p","Elapsed":0.06}`, kindSummary},
		{`{"Time":"x","Action":"output","Package":"p","Output":"ok  \tp\t0.058s\n"}`, kindSummary},
		{`{"Time":"x","Action":"run","Package":"p","Test":"TestA"}`, kindPlain},
		{`{"Time":"x","Action":"pass","Package":"p","Test":"TestA","Elapsed":0}`, kindPlain},
	} {
		if got := classify(c.line, false); got != c.want {
			t.Errorf("classify(%s) = %d, want %d", c.line, got, c.want)
		}
	}
	ex := Condense(context.Background(), Request{Command: "go test -json ./...", Stdout: b.String()}, Options{}, testSavedPath)
	for _, want := range []string{`"Output":"    calc_test.go:97: Add(2,2) = 5, want 4\n"`, `"Action":"fail","Package":"example.com/calc","Test":"TestAdd170"`,
		`"Output":"FAIL\texample.com/calc\t0.058s\n"`} {
		if !strings.Contains(ex.Stdout, want) {
			t.Errorf("extract lacks %s:\n%s", want, ex.Stdout)
		}
	}
	if !strings.Contains(ex.Stdout, `"Action":"fail","Package":"example.com/calc"}`) {
		t.Errorf("extract lacks the package's fail event:\n%s", ex.Stdout)
	}
}
