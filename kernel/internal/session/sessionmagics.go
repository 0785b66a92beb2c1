package session

import (
	"bufio"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/syncbuf"
	"github.com/goaccel/goaccel/magics"
)

// The session's side of %timeit, %reset and %%capture (magics.Timer,
// magics.Resetter, magics.Asker, magics.Capturer).

// switchWriter is a writer the session redirects while %%capture runs.
type switchWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *switchWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	w := s.w
	s.mu.Unlock()
	return w.Write(p)
}

// set makes w the destination and returns the previous one.
func (s *switchWriter) set(w io.Writer) io.Writer {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.w
	s.w = w
	return prev
}

// displaySwitch is the session's display (Session.Display): it passes each
// message to its destination, Options.Display or a %%capture's sink.
type displaySwitch struct {
	mu sync.Mutex
	d  host.Display
}

// Send passes a display message on (host.Display); nothing without a
// destination.
func (s *displaySwitch) Send(msgType string, content map[string]any) {
	if d := s.target(); d != nil {
		d.Send(msgType, content)
	}
}

// target returns the destination.
func (s *displaySwitch) target() host.Display {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.d
}

// set makes d the destination and returns the previous one.
func (s *displaySwitch) set(d host.Display) host.Display {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.d
	s.d = d
	return prev
}

// cellTimer is the clock %timeit's loop reads through the runtime helpers
// TimerStart and TimerStop, so the time excludes compiling the cell.
type cellTimer struct {
	mu      sync.Mutex
	start   time.Time
	elapsed time.Duration
}

func (t *cellTimer) Start() {
	t.mu.Lock()
	t.start, t.elapsed = time.Now(), 0
	t.mu.Unlock()
}

func (t *cellTimer) Stop() {
	now := time.Now()
	t.mu.Lock()
	t.elapsed = now.Sub(t.start)
	t.mu.Unlock()
}

func (t *cellTimer) last() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.elapsed
}

// TimeGo runs stmt n times in an interpreted loop after setup (magics.Timer).
// The loop is one closure call, so each iteration costs what the statement
// costs, not a cell's compilation; stmt keeps its cell line.
func (m magicEnv) TimeGo(ctx context.Context, c magics.TimedCode, n int) (time.Duration, any) {
	stmt := c.Stmt
	if isValueExpr(stmt) {
		stmt = "_ = " + stmt // %timeit x + 1: a bare value is not a statement
	}
	head := fmt.Sprintf("func() { %s; __goaccel.TimerStart(); for __goaccel_loop := 0; __goaccel_loop < %d; __goaccel_loop++ {", c.Setup, n)
	// The statement keeps its line and column, after the loop's header on
	// the line before: a line magic's statement ends its line of the cell.
	lines := strings.Split(c.Shown, "\n")
	col := 1
	if !strings.Contains(c.Stmt, "\n") && c.Line <= len(lines) && strings.HasSuffix(lines[c.Line-1], c.Stmt) {
		col = len(lines[c.Line-1]) - len(c.Stmt) + 1
	}
	pad := max(col-1-(len(stmt)-len(c.Stmt)), 0) // "_ = " before a value stands for the value
	code := strings.Repeat("\n", c.Line-1) + head + "\n" + strings.Repeat(" ", pad) + stmt + "\n}; __goaccel.TimerStop() }()"
	r := m.s.runCellShown(ctx, code, c.Shown, 1)
	if r.Error != nil {
		return 0, r
	}
	return m.s.timer.last(), nil
}

// isValueExpr reports whether code is a single expression other than a call
// or a receive, which Go does not accept as a statement.
func isValueExpr(code string) bool {
	e, err := parser.ParseExpr(code)
	if err != nil {
		return false
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		return false
	case *ast.UnaryExpr:
		return e.Op.String() != "<-"
	case *ast.ParenExpr:
		return isValueExpr(code[1 : len(code)-1])
	}
	return true
}

// Reset forgets every variable, function, type and import (magics.Resetter).
func (m magicEnv) Reset() error { return m.s.start() }

// Ask shows prompt and reads one line of the user's answer (magics.Asker).
func (m magicEnv) Ask(prompt string) (string, error) {
	fmt.Fprint(m.s.opts.Stdout, prompt)
	line, err := bufio.NewReader(m.s.in).ReadString('\n')
	if err != nil && line == "" {
		return "", err
	}
	return line, nil
}

// Capture runs code with what it prints and displays captured (magics.Capturer).
func (m magicEnv) Capture(ctx context.Context, code string, what magics.CaptureOptions) (*magics.CapturedIO, any, bool) {
	s := m.s
	captured := magics.NewCapturedIO(s.opts.Stdout, s.opts.Stderr)
	var stdout, stderr syncbuf.Buffer
	if what.Stdout {
		defer s.out.set(s.out.set(&stdout))
		defer redirectFile(&s.stdoutFile, &stdout)()
	}
	if what.Stderr {
		defer s.errOut.set(s.errOut.set(&stderr))
		defer redirectFile(&s.stderrFile, &stderr)()
	}
	if what.Display {
		sink := &captureSink{}
		prev := s.display.set(sink)
		defer func() {
			s.display.set(prev)
			captured.Outputs = append(sink.take(), captured.Outputs...)
		}()
	}
	r := s.runCell(ctx, code)
	defer func() { captured.Stdout, captured.Stderr = stdout.String(), stderr.String() }()
	switch {
	case r.Error != nil:
		return captured, r, true
	case r.Data != nil && what.Display:
		captured.Outputs = append(captured.Outputs, map[string]any{"data": r.Data, "metadata": r.Metadata})
	case r.Data != nil:
		return captured, r, false // shown, as --no-display asks
	}
	return captured, nil, false
}

// redirectFile points *f, when it is a file, at a pipe copied into w, and
// returns the function that points it back and waits for the copy to end.
func redirectFile(f **os.File, w io.Writer) (restore func()) {
	if *f == nil {
		return func() {}
	}
	r, pw, err := os.Pipe()
	if err != nil {
		return func() {}
	}
	prev := *f
	*f = pw
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(w, r)
		r.Close()
	}()
	return func() {
		*f = prev
		pw.Close()
		<-done
	}
}

// SetCaptured binds the session variable name to captured (magics.Capturer).
func (m magicEnv) SetCaptured(name string, captured *magics.CapturedIO) error {
	m.s.mu.Lock()
	m.s.captured = captured
	m.s.mu.Unlock()
	if r := m.s.runCell(context.Background(), name+" := __goaccel.Captured()"); r.Error != nil {
		return fmt.Errorf("bind %s: %s", name, r.Error.Evalue)
	}
	return nil
}

// lastCaptured is the runtime helper Captured.
func (s *Session) lastCaptured() *magics.CapturedIO {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.captured
}

// captureSink collects the display messages of a %%capture cell.
type captureSink struct {
	mu  sync.Mutex
	got []map[string]any
}

func (c *captureSink) Send(msgType string, content map[string]any) {
	if msgType == "clear_output" {
		return
	}
	c.mu.Lock()
	c.got = append(c.got, content)
	c.mu.Unlock()
}

func (c *captureSink) take() []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.got
}

// GoGet is %go get (magics.Modules).
func (m magicEnv) GoGet(ctx context.Context, arg string) (any, error) { return m.s.GoGet(ctx, arg) }

// GoModUse is %go mod use (magics.Modules).
func (m magicEnv) GoModUse(ctx context.Context, dir string) (any, error) {
	return m.s.GoModUse(ctx, dir)
}

// GoList is %go list (magics.Modules).
func (m magicEnv) GoList() []string { return m.s.GoList() }
