package hookio_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/vaultctx/vaultctx/core/hookio"
)

// A hook main is a handler passed to Run; here RunEnv drives it with a
// fixed payload. A real main is
//
//	func main() { os.Exit(hookio.Run("UserPromptSubmit", hookio.DefaultDeadline, handle)) }
func ExampleRunEnv() {
	handle := func(ctx context.Context, in hookio.Input) ([]byte, error) {
		if strings.HasPrefix(in.Prompt, "/") {
			return nil, nil // a slash command: print nothing
		}
		block := "## Relevant Memory Context\n\n### Example (Convert strings)\ncpp/text/convert.md\nUse WideCharToMultiByte.\n"
		return hookio.ContextOutput(in.Event, block), nil
	}
	stdin := `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"convert a wide string to UTF-8"}`
	code := hookio.RunEnv(context.Background(), hookio.Env{Stdin: strings.NewReader(stdin), Stdout: os.Stdout, Stderr: os.Stderr},
		"UserPromptSubmit", 0, handle)
	fmt.Println("exit", code)
	// Output:
	// {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"## Relevant Memory Context\n\n### Example (Convert strings)\ncpp/text/convert.md\nUse WideCharToMultiByte.\n"}}
	// exit 0
}
