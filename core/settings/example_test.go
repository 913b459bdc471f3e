package settings_test

import (
	"fmt"

	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/install"
)

// Merge adds our groups after the user's own, copying the file's layout;
// Remove takes them out again, byte for byte.
func ExampleMerge() {
	plan, err := settings.Render(install.SettingsTemplate, "/opt/vaultctx/bin")
	if err != nil {
		panic(err)
	}
	src := []byte(`{
  "model": "opus",
  "hooks": {
    "PostToolUse": [
      {"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier --write"}]}
    ]
  }
}
`)
	out, err := settings.Merge(src, plan)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	back, _ := settings.Remove(out)
	fmt.Println(string(back) == string(src))
	// Output:
	// {
	//   "model": "opus",
	//   "hooks": {
	//     "PostToolUse": [
	//       {"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier --write"}]},
	//       {
	//         "matcher": "Bash|Write|Edit|MultiEdit",
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "/opt/vaultctx/bin/vaultctx-posttooluse",
	//             "timeout": 10,
	//             "statusMessage": "Condensing command output"
	//           }
	//         ]
	//       }
	//     ],
	//     "UserPromptSubmit": [
	//       {
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "/opt/vaultctx/bin/vaultctx-userprompt",
	//             "timeout": 5,
	//             "statusMessage": "Searching your notes"
	//           }
	//         ]
	//       }
	//     ],
	//     "SessionStart": [
	//       {
	//         "matcher": "startup|resume|clear|compact",
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "/opt/vaultctx/bin/vaultctx-userprompt",
	//             "timeout": 5
	//           }
	//         ]
	//       }
	//     ],
	//     "SubagentStart": [
	//       {
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "/opt/vaultctx/bin/vaultctx-userprompt",
	//             "timeout": 5
	//           }
	//         ]
	//       }
	//     ],
	//     "PreToolUse": [
	//       {
	//         "matcher": "Grep|Glob|WebSearch|WebFetch|Task|Agent",
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "/opt/vaultctx/bin/vaultctx-pretooluse",
	//             "timeout": 5
	//           }
	//         ]
	//       }
	//     ]
	//   }
	// }
	// true
}

// Ours recognises our entries by the exact name of the binary the
// command runs, on an event the template wires it to; an argument of
// another program, another name or another event is the user's.
func ExampleOurs() {
	for _, e := range []struct{ event, cmd string }{
		{"UserPromptSubmit", "/home/ana/.local/bin/vaultctx-userprompt"},
		{"PostToolUse", "nice -n 5 '/Users/ana/My Tools/vaultctx-posttooluse'"},
		{"UserPromptSubmit", "node ~/.claude-mem/hooks/vaultctx-userprompt.js"},
		{"UserPromptSubmit", "rm -f /tmp/vaultctx-userprompt"},
		{"Notification", "/home/ana/bin/vaultctx-notify --desktop"},
		{"Stop", "/home/ana/.local/bin/vaultctx-userprompt"},
	} {
		bin, ours := settings.Ours(e.event, e.cmd)
		fmt.Println(ours, bin)
	}
	// Output:
	// true vaultctx-userprompt
	// true vaultctx-posttooluse
	// false node
	// false rm
	// false vaultctx-notify
	// false vaultctx-userprompt
}
