package kernel

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/kernel/executor"
)

// A cell that prints far more than the output limit: the front end gets the
// first MaxOutput bytes and a note, the cell completes, the session goes on.
func TestLargeStreamIsTruncatedWithANote(t *testing.T) {
	const limit = 64 << 10
	c := startKernelWith(t, func(cfg *Config) { cfg.MaxOutput = limit })
	c.subscribe()
	c.awaitSubscribed()
	id := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "spam 4194304"})
	var rep map[string]any
	if err := c.reply(id, 60*time.Second).Unmarshal(&rep); err != nil || rep["status"] != "ok" {
		t.Fatalf("execute_reply = %v %v", rep, err)
	}
	var stdout, stderr strings.Builder
	for _, m := range c.iopubMsgs(id, 30*time.Second) {
		if m.Header.MsgType != "stream" {
			continue
		}
		var s struct{ Name, Text string }
		json.Unmarshal(m.Content, &s)
		if s.Name == "stdout" {
			stdout.WriteString(s.Text)
		} else {
			stderr.WriteString(s.Text)
		}
	}
	if stdout.Len() != limit {
		t.Errorf("stdout carried %d bytes, want the first %d", stdout.Len(), limit)
	}
	if !strings.Contains(stderr.String(), "output truncated: this cell's output reached the 64 KiB limit") ||
		!strings.Contains(stderr.String(), "3.9 MiB of this cell's output were not shown") {
		t.Errorf("no truncation note; stderr = %q", stderr.String())
	}
	next := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "spam 640"})
	c.reply(next, 10*time.Second)
	var text strings.Builder
	for _, m := range c.iopubMsgs(next, 10*time.Second) {
		var s struct{ Text string }
		if m.Header.MsgType == "stream" && json.Unmarshal(m.Content, &s) == nil {
			text.WriteString(s.Text)
		}
	}
	if text.Len() != 640 {
		t.Errorf("the next cell's output: %d bytes, want 640 (the budget is per cell)", text.Len())
	}
}

// A result and an error far over the limit are cut with a note; an image
// that does not fit is left out and named.
func TestLargeResultAndErrorAreCappedWithANote(t *testing.T) {
	const limit = 64 << 10
	c := startKernelWith(t, func(cfg *Config) { cfg.MaxOutput = limit })
	c.subscribe()
	c.awaitSubscribed()
	id := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "bigresult 5000000"})
	c.reply(id, 60*time.Second)
	var result struct {
		Data map[string]any `json:"data"`
	}
	for _, m := range c.iopubMsgs(id, 30*time.Second) {
		if m.Header.MsgType == "execute_result" {
			json.Unmarshal(m.Content, &result)
		}
	}
	text, _ := result.Data["text/plain"].(string)
	if _, ok := result.Data["image/png"]; ok || len(text) > limit+1024 ||
		!strings.Contains(text, "[output truncated: 64 KiB of 4.8 MiB shown") || !strings.Contains(text, "image/png (4.8 MiB)") {
		t.Errorf("execute_result: %d bytes of text/plain ending %q, image/png kept: %v", len(text), text[max(0, len(text)-300):], result.Data["image/png"] != nil)
	}
	id = c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "bigerror 5000000"})
	var rep map[string]any
	if err := c.reply(id, 60*time.Second).Unmarshal(&rep); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(rep); len(b) > 2*limit || !strings.Contains(rep["evalue"].(string), "[truncated: 64 KiB of 4.8 MiB shown]") {
		t.Errorf("execute_reply for a huge error: %d bytes, evalue ends %q", len(b), rep["evalue"].(string)[max(0, len(rep["evalue"].(string))-100):])
	}
	for _, m := range c.iopubMsgs(id, 30*time.Second) {
		if m.Header.MsgType == "error" && len(m.Content) > 2*limit {
			t.Errorf("the error message on iopub is %d bytes", len(m.Content))
		}
	}
	id = c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "after"})
	if err := c.reply(id, 10*time.Second).Unmarshal(&rep); err != nil || rep["status"] != "ok" {
		t.Fatalf("the session after huge outputs: %v %v", rep, err)
	}
}

func TestOutputLimitBundle(t *testing.T) {
	l := &outputLimit{max: 10}
	tests := []struct {
		name string
		in   map[string]any
		want map[string]string // MIME type -> substring the capped value must contain ("" = absent)
	}{
		{"fits", map[string]any{"text/plain": "hello", "text/html": "<b>"}, map[string]string{"text/plain": "hello", "text/html": "<b>"}},
		{"text cut", map[string]any{"text/plain": "0123456789abcdef"}, map[string]string{"text/plain": "0123456789\n[output truncated: 10 bytes of 16 bytes shown"}},
		{"image left out", map[string]any{"text/plain": "pic", "image/png": "AAAAAAAAAAAAAAAA"}, map[string]string{"text/plain": "pic\n[output not shown: image/png (16 bytes)", "image/png": ""}},
		{"json counted as encoded", map[string]any{"application/json": map[string]any{"k": "vvvvvvvvvvvv"}}, map[string]string{"application/json": "", "text/plain": "application/json (20 bytes)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := l.bundle(tt.in)
			for mime, want := range tt.want {
				v, ok := got[mime]
				if want == "" {
					if ok {
						t.Errorf("%s kept: %v", mime, v)
					}
					continue
				}
				if s, _ := v.(string); !strings.Contains(s, want) {
					t.Errorf("%s = %v, want it to contain %q", mime, v, want)
				}
			}
		})
	}
}

func TestOutputLimitStreamCutsOnCharacterBoundaries(t *testing.T) {
	l := &outputLimit{max: 5}
	keep, note := l.stream("ab")
	if keep != "ab" || note != "" {
		t.Fatalf("within the budget: %q %q", keep, note)
	}
	keep, note = l.stream("cé€") // c(1) é(2) €(3): only "cé" fits the 3 bytes left
	if keep != "cé" || note == "" {
		t.Fatalf("at the limit: %q %q", keep, note)
	}
	if keep, note = l.stream("more"); keep != "" || note != "" {
		t.Fatalf("after the limit: %q %q (the note comes once)", keep, note)
	}
	if d := l.startCell(); d != 3+4 {
		t.Fatalf("dropped = %d, want 7", d)
	}
	if keep, _ = l.stream("new"); keep != "new" {
		t.Fatalf("a new cell starts a new budget: %q", keep)
	}
}

func TestOutputLimitErrorSharesTheBudget(t *testing.T) {
	l := &outputLimit{max: 8}
	e := l.error(&executor.Error{Ename: "E", Evalue: "0123456789", Traceback: []string{"line one", "line two"}})
	if !strings.HasPrefix(e.Evalue, "0123456") || !strings.Contains(e.Evalue, "[truncated") ||
		len(e.Traceback) != 1 || !strings.Contains(e.Traceback[0], "traceback truncated") {
		t.Fatalf("%+v", e)
	}
}
