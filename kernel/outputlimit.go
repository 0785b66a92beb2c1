package kernel

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/goaccel/goaccel/kernel/executor"
)

// outputLimit caps what one cell sends to the front end, as Jupyter's
// output limits do: a browser, or the saved notebook, cannot take hundreds of
// megabytes of output, and the kernel must not spend its memory queueing
// them. Stream text is counted per cell; each result, display bundle and
// error is capped on its own. What is cut is replaced by a note saying so;
// the cell and the session go on.
type outputLimit struct {
	max int

	mu       sync.Mutex
	streamed int // stream bytes published for the current cell
	dropped  int // stream bytes not published for the current cell
}

// startCell resets the stream budget for a new cell and returns how many
// bytes of the previous cell's streams were dropped.
func (l *outputLimit) startCell() (dropped int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	dropped = l.dropped
	l.streamed, l.dropped = 0, 0
	return dropped
}

// endCell returns how many stream bytes the cell had dropped so far.
func (l *outputLimit) endCell() (dropped int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dropped
}

// stream returns the part of text that fits the cell's budget and, the
// first time the budget runs out, a note to publish after it.
func (l *outputLimit) stream(text string) (keep, note string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	room := l.max - l.streamed
	if len(text) <= room {
		l.streamed += len(text)
		return text, ""
	}
	keep = cutUTF8(text, max(room, 0))
	l.streamed += len(keep)
	first := l.dropped == 0
	l.dropped += len(text) - len(keep)
	if first {
		note = fmt.Sprintf("\n[output truncated: this cell's output reached the %s limit, so the rest is not shown; the cell keeps running. "+
			"Write large output to a file, or raise the limit with GOACCEL_MAX_OUTPUT.]\n", formatBytes(l.max))
	}
	return keep, note
}

// droppedNote is what a cell's last output says when its streams were cut.
func droppedNote(dropped int) string {
	return fmt.Sprintf("[output truncated: %s of this cell's output were not shown]\n", formatBytes(dropped))
}

// bundle returns data (a MIME bundle) capped to the limit: values are taken
// text/plain first, then by MIME type; a text value that does not fit is cut
// with a note, any other value that does not fit is left out and named in
// text/plain. data itself is not modified.
func (l *outputLimit) bundle(data map[string]any) map[string]any {
	sizes := make(map[string]int, len(data))
	total := 0
	for mime, v := range data {
		sizes[mime] = valueSize(v)
		total += sizes[mime]
	}
	if total <= l.max {
		return data
	}
	keys := make([]string, 0, len(data))
	for mime := range data {
		keys = append(keys, mime)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == "text/plain") != (keys[j] == "text/plain") {
			return keys[i] == "text/plain"
		}
		return keys[i] < keys[j]
	})
	out := make(map[string]any, len(data))
	var left []string
	room := l.max
	for _, mime := range keys {
		v, size := data[mime], sizes[mime]
		switch s, isText := v.(string); {
		case size <= room:
			out[mime] = v
			room -= size
		case isText && strings.HasPrefix(mime, "text/"):
			keep := cutUTF8(s, max(room, 0))
			out[mime] = keep + fmt.Sprintf("\n[output truncated: %s of %s shown; the %s output limit applies]", formatBytes(len(keep)), formatBytes(len(s)), formatBytes(l.max))
			room -= len(keep)
		default:
			left = append(left, fmt.Sprintf("%s (%s)", mime, formatBytes(size)))
		}
	}
	if len(left) > 0 {
		note := fmt.Sprintf("[output not shown: %s exceeded the %s output limit (raise it with GOACCEL_MAX_OUTPUT)]", strings.Join(left, ", "), formatBytes(l.max))
		if text, ok := out["text/plain"].(string); ok {
			note = text + "\n" + note
		}
		out["text/plain"] = note
	}
	return out
}

// error returns e capped to the limit: its value and its traceback lines
// share the budget.
func (l *outputLimit) error(e *executor.Error) *executor.Error {
	size := len(e.Ename) + len(e.Evalue)
	for _, line := range e.Traceback {
		size += len(line)
	}
	if size <= l.max {
		return e
	}
	room := l.max
	capped := &executor.Error{Ename: cutUTF8(e.Ename, 256), Traceback: []string{}}
	capped.Evalue = l.cut(e.Evalue, &room)
	for _, line := range e.Traceback {
		if room <= 0 {
			capped.Traceback = append(capped.Traceback, fmt.Sprintf("[traceback truncated: the %s output limit applies]", formatBytes(l.max)))
			break
		}
		capped.Traceback = append(capped.Traceback, l.cut(line, &room))
	}
	return capped
}

// cut returns s cut to *room bytes (with a note when cut) and charges it.
func (l *outputLimit) cut(s string, room *int) string {
	if len(s) <= *room {
		*room -= len(s)
		return s
	}
	keep := cutUTF8(s, max(*room, 0))
	*room = 0
	return keep + fmt.Sprintf(" [truncated: %s of %s shown]", formatBytes(len(keep)), formatBytes(len(s)))
}

// valueSize is the size of a bundle value on the wire.
func valueSize(v any) int {
	if s, ok := v.(string); ok {
		return len(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// formatBytes writes n as people read sizes: "512 bytes", "3.2 MiB", "32 MiB".
func formatBytes(n int) string {
	unit, div := "GiB", float64(1<<30)
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		unit, div = "KiB", 1<<10
	case n < 1<<30:
		unit, div = "MiB", 1<<20
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/div), ".0") + " " + unit
}
