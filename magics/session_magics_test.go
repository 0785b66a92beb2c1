package magics

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// sessionEnv is a fakeEnv that also times, resets, asks and captures.
type sessionEnv struct {
	fakeEnv
	loop     time.Duration // what one loop of TimeGo takes
	timed    []int         // the n of each TimeGo call
	code     []TimedCode
	fail     any
	resets   int
	answer   string
	askErr   error
	captured *CapturedIO
	bound    map[string]*CapturedIO
}

func (s *sessionEnv) TimeGo(_ context.Context, c TimedCode, n int) (time.Duration, any) {
	s.timed = append(s.timed, n)
	s.code = append(s.code, c)
	if s.fail != nil {
		return 0, s.fail
	}
	return time.Duration(n) * s.loop, nil
}
func (s *sessionEnv) Reset() error               { s.resets++; return nil }
func (s *sessionEnv) Ask(string) (string, error) { return s.answer, s.askErr }
func (s *sessionEnv) SetCaptured(name string, c *CapturedIO) error {
	if s.bound == nil {
		s.bound = map[string]*CapturedIO{}
	}
	s.bound[name] = c
	return nil
}
func (s *sessionEnv) Capture(_ context.Context, code string, what CaptureOptions) (*CapturedIO, any, bool) {
	s.ran = append(s.ran, code)
	c := &CapturedIO{Stdout: "out", Stderr: "err"}
	if !what.Stdout {
		c.Stdout = ""
	}
	s.captured = c
	return c, nil, false
}

func TestTimeitPicksTheLoopCountLikeIPython(t *testing.T) {
	env := &sessionEnv{loop: 3 * time.Millisecond}
	if _, err := NewRegistry().Run(context.Background(), Call{Name: "timeit", Args: "f(3)", Line: 1}, env); err != nil {
		t.Fatal(err)
	}
	// 1, 2, 5, 10, 20, 50, 100 loops: 100 × 3 ms is the first ≥ 0.2 s; then 7 runs of 100.
	want := []int{1, 2, 5, 10, 20, 50, 100, 100, 100, 100, 100, 100, 100, 100}
	if !slices.Equal(env.timed, want) {
		t.Errorf("loop counts %v, want %v", env.timed, want)
	}
	if got := env.out.String(); got != "3 ms ± 0 ns per loop (mean ± std. dev. of 7 runs, 100 loops each)\n" {
		t.Errorf("report %q", got)
	}
	if c := env.code[0]; c.Stmt != "f(3)" || c.Line != 1 || c.Shown != "%timeit f(3)" {
		t.Errorf("timed code %+v", c)
	}
}

func TestTimeitOptionsAndCellForm(t *testing.T) {
	env := &sessionEnv{loop: time.Microsecond}
	_, err := NewRegistry().Run(context.Background(), Call{Name: "timeit", Cell: true, Args: "-n 1000 -r 2 xs := load()", Body: "sort(xs)", Line: 2}, env)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(env.timed, []int{1000, 1000}) {
		t.Errorf("loop counts %v, want two runs of 1000", env.timed)
	}
	if c := env.code[0]; c.Setup != "xs := load()" || c.Stmt != "sort(xs)" || c.Line != 3 || c.Shown != "\n%%timeit -n 1000 -r 2 xs := load()\nsort(xs)" {
		t.Errorf("timed code %+v", c)
	}
	if got := env.out.String(); got != "1 µs ± 0 ns per loop (mean ± std. dev. of 2 runs, 1,000 loops each)\n" {
		t.Errorf("report %q", got)
	}
	for _, bad := range []string{"-n x f()", "-r 0 f()", ""} {
		if _, err := NewRegistry().Run(context.Background(), Call{Name: "timeit", Args: bad, Line: 1}, &sessionEnv{}); err == nil {
			t.Errorf("%%timeit %s: want an error", bad)
		}
	}
}

func TestTimeitReportsAFailingRunAsTheCellsResult(t *testing.T) {
	env := &sessionEnv{fail: "compile error"}
	out, err := NewRegistry().Run(context.Background(), Call{Name: "timeit", Args: "nope()", Line: 1}, env)
	if err != nil || out.Result != "compile error" || len(env.timed) != 1 {
		t.Errorf("out %+v, err %v, runs %v", out, err, env.timed)
	}
}

func TestTimeitReportFormatsLikeIPython(t *testing.T) {
	tests := []struct {
		timings []float64
		number  int
		want    string
	}{
		{[]float64{1.2345e-5, 1.2345e-5}, 10000, "12.3 µs ± 0 ns per loop (mean ± std. dev. of 2 runs, 10,000 loops each)"},
		{[]float64{0.5}, 1, "500 ms ± 0 ns per loop (mean ± std. dev. of 1 run, 1 loop each)"},
		{[]float64{2, 4}, 1, "3 s ± 1 s per loop (mean ± std. dev. of 2 runs, 1 loop each)"},
		{[]float64{1e-9, 2e-9}, 1000000, "1.5 ns ± 0.5 ns per loop (mean ± std. dev. of 2 runs, 1,000,000 loops each)"},
		{[]float64{1e-3, 5e-3}, 10, "The slowest run took 5.00 times longer than the fastest. This could mean that an intermediate result is being cached.\n3 ms ± 2 ms per loop (mean ± std. dev. of 2 runs, 10 loops each)"},
	}
	for _, tt := range tests {
		if got := timeitReport(tt.timings, tt.number); got != tt.want {
			t.Errorf("timeitReport(%v, %d) =\n%q\nwant\n%q", tt.timings, tt.number, got, tt.want)
		}
	}
}

func TestResetAsksUnlessForced(t *testing.T) {
	r := NewRegistry()
	ctx := context.Background()
	env := &sessionEnv{answer: "n\n"}
	if _, err := r.Run(ctx, Call{Name: "reset"}, env); err != nil || env.resets != 0 || !strings.Contains(env.out.String(), "Nothing done") {
		t.Errorf("answer n: err %v, resets %d, out %q", err, env.resets, env.out.String())
	}
	env.answer = "y\n"
	if _, err := r.Run(ctx, Call{Name: "reset"}, env); err != nil || env.resets != 1 {
		t.Errorf("answer y: err %v, resets %d", err, env.resets)
	}
	env = &sessionEnv{askErr: errors.New("stdin not available")}
	if _, err := r.Run(ctx, Call{Name: "reset"}, env); err == nil || !strings.Contains(err.Error(), "%reset -f") || env.resets != 0 {
		t.Errorf("no stdin: err %v, resets %d", err, env.resets)
	}
	if _, err := r.Run(ctx, Call{Name: "reset", Args: "-f"}, env); err != nil || env.resets != 1 {
		t.Errorf("-f: err %v, resets %d", err, env.resets)
	}
	if _, err := r.Run(ctx, Call{Name: "reset"}, &fakeEnv{}); err == nil {
		t.Error("a session that cannot reset: want an error")
	}
}

func TestLoadReplacesTheCellWithTheFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "lib.go")
	if err := os.WriteFile(file, []byte("a\nb\nc\nd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ args, want, wantErr string }{
		{file, "// %load " + file + "\na\nb\nc\nd\n", ""},
		{"-r 2-3 " + file, "// %load -r 2-3 " + file + "\nb\nc\n", ""},
		{"-r 4 1- " + file, "// %load -r 4 1- " + file + "\nd\na\nb\nc\nd\n", ""},
		{"-r -2 " + file, "// %load -r -2 " + file + "\na\nb\n", ""},
		{"-r 3-9 " + file, "", "outside the file's 4 lines"},
		{filepath.Join(dir, "missing.go"), "", "no such file"},
		{"", "", "needs one file"},
	}
	for _, tt := range tests {
		out, err := NewRegistry().Run(context.Background(), Call{Name: "load", Args: tt.args}, &fakeEnv{})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%%load %s: err %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || out.NextInput != tt.want {
			t.Errorf("%%load %s: next input %q, err %v; want %q", tt.args, out.NextInput, err, tt.want)
		}
	}
}

func TestBashAndShCellsStreamAndFailOnExitStatus(t *testing.T) {
	r := NewRegistry()
	ctx := context.Background()
	env := &sessionEnv{}
	if _, err := r.Run(ctx, Call{Name: "bash", Cell: true, Body: "echo ${BASH_VERSION:+bash}\necho oops >&2"}, env); err != nil {
		t.Fatal(err)
	}
	if env.out.String() != "bash\n" || env.errOut.String() != "oops\n" {
		t.Errorf("stdout %q stderr %q", env.out.String(), env.errOut.String())
	}
	if _, err := r.Run(ctx, Call{Name: "sh", Cell: true, Body: "echo partial; exit 3"}, env); err == nil || !strings.Contains(err.Error(), "status 3") {
		t.Errorf("exit 3: err %v, want the status", err)
	}
	if _, err := r.Run(ctx, Call{Name: "sh", Cell: true, Args: "--no-raise-error", Body: "exit 3"}, env); err != nil {
		t.Errorf("--no-raise-error: %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := r.Run(cctx, Call{Name: "bash", Cell: true, Body: "sleep 30"}, env); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("interrupted script: err %v", err)
	}
}

func TestCaptureRunsTheCellAndBindsItsVariable(t *testing.T) {
	r := NewRegistry()
	env := &sessionEnv{}
	if _, err := r.Run(context.Background(), Call{Name: "capture", Cell: true, Args: "--no-stdout out", Body: "f()", Line: 1}, env); err != nil {
		t.Fatal(err)
	}
	if env.ran[0] != "\nf()" || env.bound["out"] != env.captured || env.captured.Stdout != "" {
		t.Errorf("ran %q, bound %v", env.ran, env.bound)
	}
	for _, bad := range []string{"a b", "--nope", "1x"} {
		if _, err := r.Run(context.Background(), Call{Name: "capture", Cell: true, Args: bad}, env); err == nil {
			t.Errorf("%%%%capture %s: want an error", bad)
		}
	}
}

func TestCapturedIOShowWritesItBack(t *testing.T) {
	var out, errOut bytes.Buffer
	c := NewCapturedIO(&out, &errOut)
	c.Stdout, c.Stderr = "o\n", "e\n"
	c.Show()
	if out.String() != "o\n" || errOut.String() != "e\n" {
		t.Errorf("Show wrote %q and %q", out.String(), errOut.String())
	}
	if c.String() != "CapturedIO(stdout: 2 bytes, stderr: 2 bytes, outputs: 0)" {
		t.Errorf("String = %q", c.String())
	}
}

func TestHelpDescribesEveryMagic(t *testing.T) {
	env := &fakeEnv{}
	if _, err := NewRegistry().Run(context.Background(), Call{Name: "help"}, env); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"%timeit", "%%timeit", "%reset", "%load", "%%bash", "%%sh", "%%capture"} {
		if !strings.Contains(env.out.String(), m+" ") {
			t.Errorf("%%help lacks %s", m)
		}
	}
}
