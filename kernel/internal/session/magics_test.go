package session

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestTimeitTimesInterpretedCode(t *testing.T) {
	s, out := newSession(t)
	ctx := context.Background()
	s.Execute(ctx, "xs := []int{5, 3, 1}\ncalls := 0")
	report := regexp.MustCompile(`^(The slowest run took [0-9.]+ times longer than the fastest. This could mean that an intermediate result is being cached.\n)?[0-9.]+ (ns|µs|ms|s) ± [0-9.e+-]+ (ns|µs|ms|s) per loop \(mean ± std. dev. of 3 runs, 50 loops each\)\n$`)
	for _, cell := range []string{"%timeit -n 50 -r 3 slices.Max(xs)", "%timeit -n 50 -r 3 xs[0] + 1", "%%timeit -n 50 -r 3 ys := slices.Clone(xs)\nslices.Sort(ys)\ncalls++"} {
		out.Reset()
		if r := s.Execute(ctx, cell); r.Error != nil {
			t.Fatalf("%q: %s", cell, r.Error.Evalue)
		}
		if !report.MatchString(out.String()) {
			t.Errorf("%q printed %q", cell, out.String())
		}
	}
	// The loop ran the statement 3 runs × 50 loops, after the setup each run.
	if r := s.Execute(ctx, "calls"); r.Data["text/plain"] != "150" {
		t.Errorf("calls = %v, want 150", r.Data["text/plain"])
	}
	r := s.Execute(ctx, "%timeit nope(1)")
	if r.Error == nil || !strings.Contains(r.Error.Evalue, "line 1:9: undefined: nope") {
		t.Fatalf("error %+v, want undefined: nope at the user's column", r.Error)
	}
	if tb := r.Error.Traceback; len(tb) != 3 || tb[1] != "   1 | %timeit nope(1)" {
		t.Errorf("traceback %q, want the user's line", tb)
	}
}

func TestResetForgetsEverything(t *testing.T) {
	runSteps(t, []step{
		{code: "x := 1\nfunc f() int { return 2 }\ntype T struct{}\nimport \"strings\""},
		{code: "%reset -f"},
		{code: "x", ename: "CompileError", evalue: "undefined: x"},
		{code: "f()", ename: "CompileError", evalue: "undefined: f"},
		{code: "x := \"again\"\nx", text: "again"},
		{code: "%who", out: "x string\n"},
		{code: "slices.Max([]int{1, 2})", text: "2"},
	})
}

func TestResetWithoutStdinSaysToUseForce(t *testing.T) {
	runSteps(t, []step{
		{code: "x := 1"},
		{code: "%reset", ename: "MagicError", evalue: "%reset -f"},
		{code: "x", text: "1"},
	})
}

func TestResetAsksOnStdin(t *testing.T) {
	s, out := newSession(t)
	ctx := context.Background()
	s.Execute(ctx, "x := 1")
	s.SetStdin(strings.NewReader("y\n"))
	if r := s.Execute(ctx, "%reset"); r.Error != nil || !strings.Contains(out.String(), "Proceed (y/[n])?") {
		t.Fatalf("%%reset: %+v, out %q", r.Error, out.String())
	}
	if r := s.Execute(ctx, "x"); r.Error == nil {
		t.Error("x survived %reset")
	}
}

func TestLoadSendsTheFileAsTheNextInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "helpers.go")
	if err := os.WriteFile(file, []byte("func twice(n int) int { return 2 * n }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := newSession(t)
	r := s.Execute(context.Background(), "%load "+file)
	if r.Error != nil || len(r.Payload) != 1 {
		t.Fatalf("%%load: %+v", r)
	}
	p := r.Payload[0]
	if p["source"] != "set_next_input" || p["replace"] != true || p["text"] != "// %load "+file+"\nfunc twice(n int) int { return 2 * n }\n" {
		t.Errorf("payload %v", p)
	}
}

func TestBashCellStreamsItsOutput(t *testing.T) {
	runSteps(t, []step{
		{code: "%%bash\necho one\necho two >&2", out: "one\ntwo\n"},
		{code: "%%sh\nexit 2", ename: "MagicError", evalue: "exited with status 2"},
	})
}

func TestCaptureKeepsOutputInAVariable(t *testing.T) {
	sink := &fakeSink{}
	runStepsWith(t, Options{Display: sink}, []step{
		{code: "%%capture out\nfmt.Println(\"quiet\")\nfmt.Fprintln(os.Stderr, \"hushed\")\ndisplay.HTML(\"<b>x</b>\")\n40 + 2", out: ""},
		{code: "out.Stdout + out.Stderr", text: "quiet\nhushed\n"},
		{code: "len(out.Outputs)", text: "2"},
		{code: "out.Outputs[1][\"data\"].(map[string]any)[\"text/plain\"]", text: "42"},
		{code: "out.Show()", out: "quiet\nhushed\n"},
		{code: "%%capture --no-stdout\nfmt.Println(\"shown\")", out: "shown\n"},
		{code: "%%capture bad\nnope()", ename: "CompileError", evalue: "line 2:1: undefined: nope"},
		{code: "bad.Stdout", text: ""},
	})
	// Nothing reached the notebook during the capture; Show re-displayed the
	// HTML and the result.
	if n := len(sink.got); n != 2 || sink.got[0].content["data"].(map[string]any)["text/html"] != "<b>x</b>" {
		t.Errorf("the sink got %v, want Show's re-display of the HTML and the result", sink.got)
	}
}

// TestLineMagicsAfterGoCodeRunInOrder: a line magic below complete Go code
// runs where it stands, as in IPython, and lines keep their numbers.
func TestLineMagicsAfterGoCodeRunInOrder(t *testing.T) {
	runSteps(t, []step{
		{code: "x := 41\n%env GOACCEL_SEGMENT_TEST=set\ny := os.Getenv(\"GOACCEL_SEGMENT_TEST\")\nfmt.Sprint(x+1, y)", text: "42set", out: "env: GOACCEL_SEGMENT_TEST=set\n"},
		{code: "a := 1\n%env GOACCEL_SEGMENT_TEST=again\nb := a + undefinedName", ename: "CompileError", evalue: "line 3:"},
		{code: "func f(c chan int) {}\nch := make(chan int)\n%accelerate launch f(ch)", ename: "ArgumentError", evalue: "argument 1 of f (ch): a channel"},
		{code: "s := `\n%d items\n`\nfmt.Sprintf(s, 3)", text: "\n3 items\n"},
	})
}

func TestIsCompleteReadsTheLastPartOfASplitCell(t *testing.T) {
	s, _ := newSession(t)
	for code, want := range map[string]string{
		"x := 1\n%env A=1":     "complete",
		"func f() {\n%env A=1": "incomplete",
	} {
		if got, _ := s.IsComplete(code); got != want {
			t.Errorf("IsComplete(%q) = %s, want %s", code, got, want)
		}
	}
}
