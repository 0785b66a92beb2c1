package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/tensors"
)

// clock is a fake time source advanced by the test.
type clock struct{ t time.Time }

func (c *clock) now() time.Time       { return c.t }
func (c *clock) tick(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                { return &clock{t: time.Unix(1000, 0)} }
func rangeBar(n int, desc string, o output, c *clock) *Bar {
	return newRoot(Options{Total: n, Desc: desc}, o, c.now)
}

type sink struct {
	mu   sync.Mutex
	msgs []string
	ids  []string
	data []map[string]any
}

func (s *sink) Send(t string, content map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, t)
	tr, _ := content["transient"].(map[string]any)
	id, _ := tr["display_id"].(string)
	s.ids = append(s.ids, id)
	d, _ := content["data"].(map[string]any)
	s.data = append(s.data, d)
}

func withSink(t *testing.T) *sink {
	s := &sink{}
	host.ForTest(t, host.Host{Display: s})
	return s
}

func TestTheLineReadsLikeTqdms(t *testing.T) {
	c := newClock()
	b := rangeBar(469, "train", output{mode: off}, c)
	for i := 0; i < 211; i++ { // 210 items done, the 211th in progress
		b.Next()
	}
	c.tick(1310 * time.Millisecond)
	b.Set("loss", 0.312345)
	b.Set("lr", float32(1e-3))
	b.Set("loss", 0.3125) // replaces, keeps its place
	want := "train:  44%|████████▉           | 210/469 [00:01<00:02, 160.31it/s, loss=0.3125, lr=0.001]"
	if got := b.String(); got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}
	u := newRoot(Options{Desc: "tokens", Unit: "tok"}, output{mode: off}, c.now)
	u.Add(12)
	c.tick(4 * time.Second)
	if got, want := u.String(), "tokens: 12tok [00:04, 3.00tok/s]"; got != want {
		t.Errorf("no total: %q, want %q", got, want)
	}
	slow := rangeBar(100, "", output{mode: off}, c)
	slow.Add(1)
	c.tick(3725 * time.Second)
	if got := slow.String(); !strings.Contains(got, "1/100 [1:02:05<") || !strings.Contains(got, "3725.00s/it") {
		t.Errorf("slow bar %q: want h:mm:ss times and seconds per item", got)
	}
}

func TestRangeCountsAndStops(t *testing.T) {
	b := newRoot(Options{Total: 3}, output{mode: off}, time.Now)
	var seen []int
	for b.Next() {
		seen = append(seen, b.Index())
	}
	if len(seen) != 3 || seen[2] != 2 || b.N() != 3 || b.Next() {
		t.Errorf("indices %v, N %d: want 0 1 2 and 3 done, and Next false after the end", seen, b.N())
	}
	if Range(0, "none").Next() {
		t.Error("Range(0) ran an iteration")
	}
}

func TestOverALoaderTakesItsBatchesAsTheTotal(t *testing.T) {
	x := tensors.New(make([]float32, 10), 10, 1)
	loader := data.NewLoader(data.NewTensorDataset(x, nil), data.LoaderConfig{BatchSize: 3})
	b := Over(loader, "batches")
	n := 0
	for b.Next() {
		xb, _ := loader.Batch()
		n += xb.Size(0)
	}
	if n != 10 || b.N() != 4 || !strings.Contains(b.String(), "4/4") {
		t.Errorf("%d samples in %d batches, line %q: want 10 samples, 4/4", n, b.N(), b.String())
	}
}

func TestInANotebookABarIsOneHTMLDisplayUpdatedInPlace(t *testing.T) {
	s := withSink(t)
	c := newClock()
	b := rangeBar(50, "epoch <1>", output{mode: notebook}, c)
	for b.Next() {
		c.tick(20 * time.Millisecond) // 1 s in all: ~10 redraws at 100 ms
	}
	if s.msgs[0] != "display_data" {
		t.Fatalf("first message %s, want display_data", s.msgs[0])
	}
	for i := 1; i < len(s.msgs); i++ {
		if s.msgs[i] != "update_display_data" || s.ids[i] != s.ids[0] {
			t.Fatalf("message %d: %s for display %q, want update_display_data of %q", i, s.msgs[i], s.ids[i], s.ids[0])
		}
	}
	if n := len(s.msgs); n < 5 || n > 13 {
		t.Errorf("%d messages for 1 s of progress, want about 10 (throttled to one per 100 ms) plus the final one", n)
	}
	last := s.data[len(s.data)-1]
	html, _ := last["text/html"].(string)
	for _, want := range []string{`value="50" max="50"`, "#2ca02c", "epoch &lt;1&gt;", "100% 50/50"} {
		if !strings.Contains(html, want) {
			t.Errorf("final HTML lacks %q:\n%s", want, html)
		}
	}
	if plain, _ := last["text/plain"].(string); !strings.Contains(plain, "50/50") {
		t.Errorf("text/plain %q", plain)
	}
}

func TestNestedBarsKeepOneDisplayPerLevel(t *testing.T) {
	s := withSink(t)
	c := newClock()
	epochs := rangeBar(3, "epoch", output{mode: notebook}, c)
	for epochs.Next() {
		batches := epochs.Range(20, "train")
		for batches.Next() {
			c.tick(30 * time.Millisecond)
			batches.Set("loss", 1.0/float64(batches.Index()+1))
		}
	}
	ids := map[string]int{}
	shown := 0
	for i, m := range s.msgs {
		ids[s.ids[i]]++
		if m == "display_data" {
			shown++
		}
	}
	if shown != 2 || len(ids) != 2 {
		t.Errorf("%d displays, %d display ids, want 2 of each (epochs, batches) updated in place; messages %v", shown, len(ids), s.msgs)
	}
	last := s.data[len(s.data)-1]["text/html"].(string)
	if !strings.Contains(last, "3/3") {
		t.Errorf("the last update is not the finished epoch bar: %s", last)
	}
}

func TestInATerminalOneLineIsRewritten(t *testing.T) {
	var buf bytes.Buffer
	c := newClock()
	epochs := rangeBar(2, "epoch", output{mode: terminal, w: &buf}, c)
	for epochs.Next() {
		batches := epochs.Range(5, "train")
		for batches.Next() {
			c.tick(200 * time.Millisecond)
		}
	}
	out := buf.String()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("want one line, rewritten with \\r and ended once; got %q", out)
	}
	if !strings.Contains(out, "\repoch 2/2 | train: 100%|") || !strings.Contains(out, "\x1b[K") {
		t.Errorf("nested bar not shown after its parent on the line: %q", out)
	}
}

func TestInALogLinesArePeriodic(t *testing.T) {
	var buf bytes.Buffer
	c := newClock()
	b := rangeBar(35, "train", output{mode: logLines, w: &buf}, c)
	for b.Next() {
		c.tick(time.Second)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// The start, after 10, 20 and 30 s, and the end; no carriage returns.
	if len(lines) != 5 || strings.Contains(buf.String(), "\r") || !strings.Contains(lines[4], "35/35") {
		t.Errorf("%d lines, want 5 plain ones ending at 35/35:\n%s", len(lines), buf.String())
	}
}

func TestOnlyTheLocalMainProcessDraws(t *testing.T) {
	tests := []struct {
		env  map[string]string
		opts Options
		want bool
	}{
		{map[string]string{}, Options{}, true},
		{map[string]string{"RANK": "0", "LOCAL_RANK": "0"}, Options{}, true},
		{map[string]string{"RANK": "1", "LOCAL_RANK": "1"}, Options{}, false},
		{map[string]string{"RANK": "1"}, Options{}, false},
		{map[string]string{"RANK": "3", "LOCAL_RANK": "0"}, Options{}, true}, // a second host's main process
		{map[string]string{"OMPI_COMM_WORLD_LOCAL_RANK": "1"}, Options{}, false},
		{map[string]string{"SLURM_PROCID": "2"}, Options{}, false},
		{map[string]string{"RANK": "1"}, Options{AllRanks: true}, true},
		{map[string]string{}, Options{Disable: true}, false},
	}
	for _, tc := range tests {
		for _, k := range rankVars {
			t.Setenv(k, "")
		}
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		s := withSink(t)
		b := New(tc.opts)
		b.Add(1)
		b.Close()
		if drew := len(s.msgs) > 0; drew != tc.want {
			t.Errorf("env %v, options %+v: drew %v, want %v", tc.env, tc.opts, drew, tc.want)
		}
	}
}

func TestABarClosedEarlyTurnsRed(t *testing.T) {
	s := withSink(t)
	b := rangeBar(10, "x", output{mode: notebook}, newClock())
	b.Next()
	b.Next()
	b.Close()
	b.Close()
	html := s.data[len(s.data)-1]["text/html"].(string)
	if !strings.Contains(html, "#d62728") || !strings.Contains(html, `value="1" max="10"`) {
		t.Errorf("closed early: %s", html)
	}
}
