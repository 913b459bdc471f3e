package recall

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/internal/textan"
)

func TestIsSlashCommand(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"/model", true}, {"  /clear", true}, {"/compact keep the plan", true}, {"/mcp:tool arg", true},
		{"/usr/bin is slow", false}, {"/ 3", false}, {"/", false}, {"how do /model work", false}, {"", false},
		{"/1abc", false}, {"/Zi vs /Z7 - whats the difference", false}, {"/permissive- breaks my build", false},
		{"/plugin:do-thing x", true}, {"/Model", false},
	} {
		if got := IsSlashCommand(c.in); got != c.want {
			t.Errorf("IsSlashCommand(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestPromptSkip names, for prompts as Claude Code hands them to the
// hook, whether the vault is searched and why not.
func TestPromptSkip(t *testing.T) {
	for _, tc := range []struct {
		name, prompt, want string
	}{
		// Questions the vault may answer: searched.
		{"how-to", "How do I convert a wide character string to a multibyte string safely in C++?", ""},
		{"cmdlet question", "whats the powershell equivalent of `time` in bash", ""},
		{"msvc warning pasted alone", "LINK : warning LNK4098: defaultlib 'LIBCMT' conflicts with use of other libs; use /NODEFAULTLIB:library", ""},
		{"msvc warning with a question", "parser.cpp(212): warning C4244: 'initializing': conversion from '__int64' to 'int', possible loss of data\nonly shows up in the x64 config, what's the right fix", ""},
		{"powershell error record", "InvalidOperation: You cannot call a method on a null-valued expression.\nAt C:\\scripts\\report.ps1:14 char:5\n+     $user.Name.ToUpper()", ""},
		{"a path inside a question", "/usr/bin is slow", ""},
		{"an everyday task", "commit and push", ""},
		{"dotted type name", "System.IO.File", ""},
		{"a tag mentioned later", "why does <task-notification> show up in my transcript?", ""},
		{"html the user pasted", "<div class=\"x\">hi</div> why is this not centered", ""},
		{"stack trace and a question", "Traceback (most recent call last):\n  File \"/app/manage.py\", line 22, in <module>\n    main()\n  File \"/app/x.py\", line 8, in main\n    run()\nKeyError: 'sku'\nhow do I fix this?", ""},
		{"log and a request", "2026-12-02T02:17:30.910Z INFO start\n2026-12-02T02:17:31.000Z ERROR boom\n2026-12-02T02:17:31.100Z INFO stop\nwe get this on every deploy", ""},

		// Slash commands.
		{"slash", "/compact", SkipSlash},
		{"custom slash command", "/notes wide strings in C++", SkipSlash},

		// Written by the client.
		{"task notification, shell", "<task-notification>\n<task-id>bbm8hz28y</task-id>\n<tool-use-id>toolu_bgbash</tool-use-id>\n<status>completed</status>\n<summary>Background command \"bg\" completed (exit code 0)</summary>\n</task-notification>", SkipClient},
		{"command wrapper", "<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>", SkipClient},
		{"command message first", "<command-message>review is running…</command-message>\n<command-name>/review</command-name>", SkipClient},
		{"local command stdout", "<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>", SkipClient},
		{"local command caveat", "<local-command-caveat>The command below was run directly in Claude Code, not sent to you as a request.</local-command-caveat>", SkipClient},
		{"bash mode input", "<bash-input>go test ./...</bash-input>", SkipClient},
		{"system reminder", "<system-reminder>\nToday's date is 2026-12-02.\n</system-reminder>", SkipClient},
		{"channel with attributes", "<channel source=\"ci\">build 812 failed on the windows runner</channel>", SkipClient},
		{"unknown kebab wrapper", "<future-client-notice>\nsomething happened\n</future-client-notice>", SkipClient},
		{"loop sentinel", "<<autonomous-loop-dynamic>>", SkipClient},
		{"system notification frame", "[SYSTEM NOTIFICATION - NOT USER INPUT]\nAgent \"x\" finished", SkipClient},

		// Acknowledgements.
		{"ok", "ok", SkipAck},
		{"thanks", "thanks!", SkipAck},
		{"yes do it", "yes do it", SkipAck},
		{"continue", "continue", SkipAck},
		{"lgtm", "LGTM", SkipAck},
		{"looks good", "looks good, continue", SkipAck},
		{"try again", "hmm not quite, try again", SkipAck},
		{"emoji", "perfect 👍", SkipAck},
		{"y", "y", SkipAck},
		{"ship it", "sounds good, ship it", SkipAck},
		{"lets", "ok let's do that", SkipAck},

		// Only paths or URLs.
		{"file path", "src/components/Checkout/PaymentForm.tsx", SkipLocator},
		{"url", "https://github.com/acme/api/pull/482", SkipLocator},
		{"mention", "@src/lib/auth.ts", SkipLocator},
		{"home path", "~/projects/webshop/docker-compose.yml", SkipLocator},
		{"absolute path", "/var/log/nginx/error.log", SkipLocator},
		{"file and line", "cmd/vaultd/main.go:88", SkipLocator},
		{"bare file name", "store_test.go", SkipLocator},
		{"windows path", `C:\tools\deploy.ps1`, SkipLocator},
		{"two paths", "internal/store/store.go internal/store/store_test.go", SkipLocator},

		// Pasted output without a question.
		{"go panic", "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6b2f3a]\n\ngoroutine 1 [running]:\nmain.(*Server).Start(0x0)\n\t/home/dev/app/server.go:42 +0x3a\nmain.main()\n\t/home/dev/app/main.go:17 +0x85\nexit status 2", SkipPasted},
		{"python traceback", "Traceback (most recent call last):\n  File \"/app/manage.py\", line 22, in <module>\n    main()\n  File \"/app/orders/views.py\", line 88, in checkout\n    total = sum(i.price for i in cart.items)\nAttributeError: 'NoneType' object has no attribute 'items'", SkipPasted},
		{"java trace", "Exception in thread \"main\" java.lang.IllegalStateException: closed\n\tat com.acme.Pool.get(Pool.java:61)\n\tat com.acme.Service.run(Service.java:20)\n\tat com.acme.Main.main(Main.java:9)\nCaused by: java.io.IOException: reset\n\t... 3 more", SkipPasted},
		{"npm log", "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! Found: react@18.2.0\nnpm ERR! Could not resolve dependency:\nnpm ERR! peer react@\"^17.0.0\" from react-beautiful-dnd@13.1.1", SkipPasted},
		{"server log", "2026-12-02T02:17:30.910Z INFO  http status=200 dur=21ms\n2026-12-02T02:17:30.943Z INFO  http status=200 dur=32ms\n2026-12-02T02:17:46.651Z ERROR http status=500 err=\"KeyError: 'sku-4471'\"", SkipPasted},
		{"rust backtrace", "thread 'main' panicked at src/main.rs:4:5:\nboom\nstack backtrace:\n   0: rust_begin_unwind\n   1: core::panicking::panic_fmt\n   2: app::main\n   3: core::ops::function::FnOnce::call_once", SkipPasted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PromptSkip(tc.prompt); got != tc.want {
				t.Errorf("PromptSkip(%q) = %q, want %q", tc.prompt, got, tc.want)
			}
		})
	}
}

// TestPromptSkipClientPrompts checks the prompts the real client sent the
// UserPromptSubmit hook when background work finished
// (testdata/client-prompts.jsonl, captured from Claude Code 2.1.332).
func TestPromptSkipClientPrompts(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "client-prompts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var p struct{ Source, Prompt string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		n++
		if got := PromptSkip(p.Prompt); got != SkipClient {
			t.Errorf("%s: PromptSkip = %q, want %q\n%s", p.Source, got, SkipClient, p.Prompt)
		}
	}
	if n == 0 {
		t.Fatal("no captured prompts")
	}
}

// TestPromptSkipPromptSet runs the gate over the realistic prompt set
// (testdata/prompts): it must never skip a question the vault answers, and
// it skips every acknowledgement and every lone path or URL among the
// unrelated prompts; the rest is the relevance floor's.
func TestPromptSkipPromptSet(t *testing.T) {
	for _, p := range loadSet(t, "answerable.jsonl") {
		if r := PromptSkip(p.Prompt); r != "" {
			t.Errorf("%s (%s) is skipped as %q: %q", p.ID, p.Kind, r, p.Prompt)
		}
	}
	byKind := map[string][2]int{}
	for _, p := range loadSet(t, "unrelated.jsonl") {
		r := PromptSkip(p.Prompt)
		c := byKind[p.Kind]
		c[1]++
		if r != "" {
			c[0]++
		}
		byKind[p.Kind] = c
		if (p.Kind == "ack" || p.Kind == "path-or-url") && r == "" {
			t.Errorf("%s (%s) is searched: %q", p.ID, p.Kind, p.Prompt)
		}
	}
	var kinds []string
	for k := range byKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		t.Logf("unrelated %-14s skipped %2d of %2d", k, byKind[k][0], byKind[k][1])
	}
}

// TestAckWordsBeyondTextan keeps ackWords to words textan does not already
// drop, as its doc says.
func TestAckWordsBeyondTextan(t *testing.T) {
	for w := range ackWords {
		if textan.StopWord(w) || textan.Filler(w) {
			t.Errorf("%q is already a textan stop word or filler", w)
		}
	}
}

// FuzzPromptSkip checks that the gate never panics, always answers one of
// its reasons, ignores surrounding white space, and that a skipped
// prompt's reason is one of the checks that holds for it.
func FuzzPromptSkip(f *testing.F) {
	for _, s := range []string{
		"ok", "/compact", "<task-notification>\n<status>completed</status>\n</task-notification>",
		"src/a.go:12", "https://x.y/z", "goroutine 1 [running]:\nmain.main()\n\t/a/b.go:3 +0x1\n",
		"How do I convert a wide string?", "<<autonomous-loop>>", "<a-b>", "npm ERR! x\nnpm ERR! y\nnpm ERR! z",
		"\xff\xfe", "C:\\x", "@", "<-->", "#1 f\n#2 g\n#3 h",
	} {
		f.Add(s)
	}
	reasons := []string{"", SkipSlash, SkipClient, SkipAck, SkipLocator, SkipPasted}
	f.Fuzz(func(t *testing.T, prompt string) {
		got := PromptSkip(prompt)
		if !slices.Contains(reasons, got) {
			t.Fatalf("PromptSkip(%q) = %q, not a reason", prompt, got)
		}
		if again := PromptSkip(" \n\t" + prompt + "\n "); again != got && utf8.ValidString(prompt) {
			t.Errorf("PromptSkip(%q) = %q, with white space around it %q", prompt, got, again)
		}
		holds := map[string]bool{
			SkipSlash: IsSlashCommand(prompt), SkipClient: IsClientMessage(prompt), SkipAck: IsAcknowledgement(prompt),
			SkipLocator: IsLocator(prompt), SkipPasted: IsPastedOutput(capQuery(prompt)),
		}
		if got != "" && !holds[got] {
			t.Errorf("PromptSkip(%q) = %q, but that check does not hold", prompt, got)
		}
		if got == "" && strings.TrimSpace(prompt) != "" {
			for r, h := range holds {
				if h {
					t.Errorf("PromptSkip(%q) = \"\", but %q holds", prompt, r)
				}
			}
		}
	})
}

// BenchmarkPromptSkip measures the gate on a question, and on an 8 MB
// pasted prompt, which it must not split whole.
func BenchmarkPromptSkip(b *testing.B) {
	huge := strings.Repeat("2026-12-02T02:17:30.910Z INFO http request_id=f2169536 status=200 dur=21ms\n", 8<<20/76)
	for _, c := range []struct{ name, prompt string }{
		{"question", "How do I convert a wide character string to a multibyte string safely in C++?"},
		{"8MB log", huge},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				PromptSkip(c.prompt)
			}
		})
	}
}
