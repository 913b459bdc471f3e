package posttool

import (
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/hookio"
)

// transcriptTail is how much of the end of a transcript LatestPrompt reads:
// 1 MiB, plenty for the last user turn and cheap for long sessions.
const transcriptTail = 1 << 20

// LatestPrompt returns the text of the last user prompt in a Claude Code
// transcript (JSONL: one JSON object a line; user turns have "type":"user"
// and message.content as a string or a list of blocks). Text blocks are
// joined with newlines; turns that hold only tool_result blocks, and meta
// lines ("isMeta": true), are skipped, and so is a line that is not valid
// JSON or nests deeper than hookio.MaxDepth. Only the last 1 MiB is read. A
// missing, unreadable, partial or differently shaped file gives "".
//
// Only a regular file (or a symlink to one) is read: a FIFO, socket,
// device or directory gives "" at once. The path is stat'ed first and then
// opened without blocking (O_NONBLOCK), so a FIFO put in its place between
// the two calls cannot hold the hook until its deadline either; the open
// file is checked again.
func LatestPrompt(path string) string {
	if path == "" {
		return ""
	}
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return ""
	}
	off := max(info.Size()-transcriptTail, 0)
	data, err := io.ReadAll(io.NewSectionReader(f, off, info.Size()-off))
	if err != nil {
		return ""
	}
	if off > 0 { // the first line is probably cut
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	for len(data) > 0 {
		i := bytes.LastIndexByte(bytes.TrimRight(data, "\n"), '\n')
		ln := data[i+1:]
		data = data[:max(i, 0)]
		if p := userText(ln); p != "" {
			return p
		}
		if i < 0 {
			break
		}
	}
	return ""
}

// userText returns the prompt text of one transcript line, or "".
func userText(ln []byte) string {
	ln = bytes.TrimSpace(ln)
	if len(ln) == 0 || ln[0] != '{' || !hookio.Valid(ln) {
		return ""
	}
	r := gjson.ParseBytes(ln)
	if r.Get("type").String() != "user" || r.Get("isMeta").Bool() {
		return ""
	}
	c := r.Get("message.content")
	switch {
	case c.Type == gjson.String:
		return strings.TrimSpace(c.Str)
	case c.IsArray():
		var parts []string
		for _, b := range c.Array() {
			if b.Get("type").String() == "text" {
				if t := strings.TrimSpace(b.Get("text").String()); t != "" {
					parts = append(parts, t)
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}
