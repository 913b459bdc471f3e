package hookio

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/tidwall/gjson"
)

var fieldKeys = []string{"stdout", "stderr", "interrupted", "isImage", "a", "", "é", "k\"q"}

// checkFields compares Fields with its gjson ForEach reference on the JSON
// object raw (Index aside, which Fields does not set).
func checkFields(t *testing.T, raw string) {
	t.Helper()
	obj := gjson.Parse(raw)
	got, want := Fields(obj, fieldKeys...), fieldsForEach(obj, fieldKeys...)
	for i := range fieldKeys {
		g, w := got[i], want[i]
		if g.Type != w.Type || g.Str != w.Str || g.Raw != w.Raw || g.Num != w.Num || g.Bool() != w.Bool() {
			t.Fatalf("Fields(%.200q)[%q] = %+v, ForEach gives %+v", raw, fieldKeys[i], g, w)
		}
	}
}

// TestFieldsMatchesForEach runs the fast scan and its reference over every
// real tool response and some edge cases.
func TestFieldsMatchesForEach(t *testing.T) {
	files, _ := filepath.Glob(testkit.SharedDir("tool-outputs/*/*.json"))
	more, _ := filepath.Glob(testkit.SharedDir("hook-payloads/*.json"))
	n := 0
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if r := gjson.GetBytes(data, "tool_response"); r.IsObject() {
			checkFields(t, r.Raw)
			n++
		}
		if gjson.ValidBytes(data) {
			checkFields(t, string(data))
		}
	}
	if n < 10 {
		t.Fatalf("only %d tool responses", n)
	}
	for _, raw := range []string{
		`{}`, ` { "a" : 1 , "a" : 2 } `, `{"stdout":"x\ny\\\"z\u00e9\ud83d\ude00\ud800x\udc00\/\b\f\r\t"}`,
		`{"a":{"b":[1,"}",{"c":"]"}]},"stdout":"s"}`, `{"interrupted":true,"isImage":false,"stdout":null,"stderr":12.5e3}`,
		`{"k\"q":"v","\u00e9":"e","":"empty"}`, `{"stdout":"\\\\"}`, `{"stdout":"a\\\\\"b"}`,
	} {
		checkFields(t, raw)
	}
}

func FuzzFields(f *testing.F) {
	f.Add("x\ny", "é\"\\", true)
	f.Add("\U0001F600 \u0001 \\u", "", false)
	f.Add(`{"stdout":"\ud800\udc00 \ud800 \u00"}`, "", false)
	f.Fuzz(func(t *testing.T, stdout, key string, flag bool) {
		b, err := json.Marshal(map[string]any{"stdout": stdout, key: []any{stdout, map[string]any{key: flag}}, "isImage": flag, "stderr": key})
		if err != nil {
			t.Skip()
		}
		checkFields(t, string(b))
		// Raw fuzz input that happens to be a JSON object.
		if gjson.Valid(stdout) && gjson.Parse(stdout).IsObject() {
			checkFields(t, stdout)
		}
	})
}
