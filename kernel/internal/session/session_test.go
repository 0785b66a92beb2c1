package session

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/syncbuf"
)

// newSession's output buffer is safe for concurrent use: goroutines that
// cells start write to it while the test reads it.
func newSession(t *testing.T) (*Session, *syncbuf.Buffer) {
	t.Helper()
	out := &syncbuf.Buffer{}
	return hosted(t, Options{Stdout: out, Stderr: out}), out
}

// hosted starts a session with opts and makes it the process's host for
// the test, as the executor process does: cells' displays go to
// opts.Display (through the session, for %%capture), their widgets to
// opts.Comms and their launches to the session.
func hosted(t *testing.T, opts Options) *Session {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	host.ForTest(t, host.Host{Display: s.Display(), Comms: opts.Comms, Cells: s})
	t.Cleanup(func() { stopEveryLaunch(t, s) })
	return s
}

// stopEveryLaunch kills the launches a test left running (a goroutine's
// launch that outlives its cell, or one a failed test did not stop) and
// waits until each has returned: the process runs one launch at a time, and
// a straggler would refuse the next test's launches.
func stopEveryLaunch(t *testing.T, s *Session) {
	s.launches.stopAll()
	deadline := time.Now().Add(time.Minute)
	for {
		s.launches.mu.Lock()
		n := len(s.launches.launches)
		s.launches.mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d launches of the test still run a minute after they were cancelled", n)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitOutput waits until out holds every one of wants and returns it. A
// goroutine's panic report is written as that goroutine ends, which can be
// after the cell that waited for it has returned.
func waitOutput(t *testing.T, out *syncbuf.Buffer, wants ...string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, missing := out.String(), ""
		for _, w := range wants {
			if !strings.Contains(got, w) {
				missing = w
				break
			}
		}
		if missing == "" || time.Now().After(deadline) {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// step is one cell and what it must produce.
type step struct {
	code   string
	text   string // expected text/plain ("" = no result)
	out    string // expected stdout+stderr written by the cell
	ename  string // expected error name ("" = success)
	evalue string // substring of the error value
}

func runSteps(t *testing.T, steps []step) {
	t.Helper()
	runStepsWith(t, Options{}, steps)
}

// runStepsWith is runSteps in a session with opts (its Stdout and Stderr
// are the buffer the steps' output is read from).
func runStepsWith(t *testing.T, opts Options, steps []step) {
	t.Helper()
	out := &syncbuf.Buffer{}
	opts.Stdout, opts.Stderr = out, out
	s := hosted(t, opts)
	for i, st := range steps {
		out.Reset()
		r := s.Execute(context.Background(), st.code)
		if st.ename != "" {
			if r.Error == nil || r.Error.Ename != st.ename || !strings.Contains(r.Error.Evalue, st.evalue) {
				t.Fatalf("cell %d %q: error %+v, want %s containing %q", i, st.code, r.Error, st.ename, st.evalue)
			}
			continue
		}
		if r.Error != nil {
			t.Fatalf("cell %d %q: unexpected error %s: %s\n%s", i, st.code, r.Error.Ename, r.Error.Evalue, strings.Join(r.Error.Traceback, "\n"))
		}
		got := ""
		if r.Data != nil {
			got, _ = r.Data["text/plain"].(string)
		}
		if got != st.text {
			t.Errorf("cell %d %q: result %q, want %q", i, st.code, got, st.text)
		}
		if out.String() != st.out {
			t.Errorf("cell %d %q: output %q, want %q", i, st.code, out.String(), st.out)
		}
	}
}

func TestStatePersistsAcrossCells(t *testing.T) {
	runSteps(t, []step{
		{code: "x := 40", text: ""},
		{code: "x + 2", text: "42"},
		{code: "func double(n int) int { return 2 * n }\ny := double(x)\ny", text: "80"},
		{code: "import \"strings\"", text: ""},
		{code: `strings.Repeat("ab", 2)`, text: "abab"},
		{code: "var names []string\nnames = append(names, \"a\")\nlen(names)", text: "1"},
		{code: "type point struct{ X, Y int }\np := point{1, 2}\np.X + p.Y", text: "3"},
		{code: "const k = 7\nk * 2", text: "14"},
	})
}

func TestDeclarationsAndStatementsMixInAnyOrder(t *testing.T) {
	runSteps(t, []step{
		{code: "a := 1\nfunc inc(n int) int { return n + 1 }\nb := inc(a)\ntype pair struct{ A, B int }\nq := pair{a, b}\nq.B", text: "2"},
	})
}

func TestDeclarationsRunBeforeTheStatementsThatUseThem(t *testing.T) {
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"func after the loop that calls it", []step{{code: "for i := 0; i < 1; i++ { a := two2(); fmt.Println(a) }\nfunc two2() int { return 1 }", out: "1\n"}}},
		{"func after a variable it uses", []step{{code: "x := 1\nfunc f() int { return x }\nf()", text: "1"}}},
		{"func before a variable it uses", []step{{code: "func g() int { return y + 1 }\ny := 4\ng()", text: "5"}}},
		{"type and method after their use", []step{{code: "p := pt{7}\nfmt.Println(p.get())\ntype pt struct{ v int }\nfunc (q pt) get() int { return q.v }", out: "7\n"}}},
		{"const after its use", []step{{code: "z := k * 2\nconst k = 3\nz", text: "6"}}},
		{"error in a moved declaration keeps its line", []step{{code: "v := h()\nfunc h() int { return nope }", ename: "CompileError", evalue: "line 2:23: undefined: nope"}}},
		{"error in a statement after a moved declaration keeps its line", []step{{code: "w := h2() + nope2\nfunc h2() int { return 1 }", ename: "CompileError", evalue: "line 1:13: undefined: nope2"}}},
	} {
		t.Run(c.name, func(t *testing.T) { runSteps(t, c.steps) })
	}
}

func TestRedefiningAFunctionReplacesIt(t *testing.T) {
	runSteps(t, []step{
		{code: "func f() int { return 1 }", text: ""},
		{code: "f()", text: "1"},
		{code: "func f() string { return \"two\" }", text: ""},
		{code: "f()", text: "two"},
	})
}

func TestBlocksAtTopLevelDefineSeveralValues(t *testing.T) {
	runSteps(t, []step{
		{code: "func pair(i int) (int, int) { return i, 2 * i }\nsum := 0", text: ""},
		{code: "for i := 0; i < 3; i++ {\n\ta, b := pair(i)\n\tsum += a + b\n}\nsum", text: "9"},
		{code: "m := map[string]int{\"k\": 4}\nif v, ok := m[\"k\"]; ok {\n\tw, ok2 := m[\"k\"]\n\tsum += v + w\n\t_ = ok2\n}\nsum", text: "17"},
		{code: "for i := range 2 {\n\ta, _ := pair(i)\n\tif a == 1 {\n\t\tpanic(\"stop at one\")\n\t}\n}", ename: "Panic", evalue: "stop at one (line 4)"},
		{code: "sum", text: "17"},
	})
}

func TestTopLevelTypeSwitchRuns(t *testing.T) {
	runSteps(t, []step{
		{code: "var x any = 3.5\nswitch v := x.(type) {\ncase float64:\n\tfmt.Println(\"float\", v)\ndefault:\n\tfmt.Println(\"other\")\n}", out: "float 3.5\n"},
	})
}

func TestRedefiningATypeReplacesIt(t *testing.T) {
	runSteps(t, []step{
		{code: "type rec struct{ A int }\nfunc (r rec) Sum() int { return r.A }", text: ""},
		{code: "rec{A: 2}.Sum()", text: "2"},
		{code: "type rec struct{ B, C int }", text: ""},
		{code: "func (r rec) Sum() int { return r.B + r.C }", text: ""},
		{code: "r := rec{B: 1, C: 2}\nr.Sum()", text: "3"},
		{code: "rec{A: 1}", ename: "CompileError", evalue: "unknown field A in struct literal"},
		{code: "var bad rec = 3", ename: "CompileError", evalue: "rec"},
	})
}

func TestCellTypesImplementOurInterfaces(t *testing.T) {
	runSteps(t, []step{
		{code: "type card struct{ title string }\nfunc (c card) HTML() string { return \"<b>\" + c.title + \"</b>\" }", text: ""},
		{code: "var h display.HTMLer = card{\"x\"}\nb, _ := display.BundleOf(h)\nb[\"text/html\"]", text: "<b>x</b>"},
	})
}

func TestACellTypeImplementsNnModule(t *testing.T) {
	runSteps(t, []step{
		{code: "type twice struct{ inner nn.Module }\n" +
			"func (m *twice) Forward(x *tensors.Tensor) *tensors.Tensor { return m.inner.Forward(m.inner.Forward(x)) }\n" +
			"func (m *twice) Parameters() []*tensors.Tensor { return m.inner.Parameters() }\n" +
			"func (m *twice) NamedParameters() []nn.NamedParameter { return nn.Prefixed(\"inner\", m.inner) }", text: ""},
		{code: "var m nn.Module = &twice{inner: nn.NewLinear(2, 2)}\nlen(nn.ParametersOf(m))", text: "2"},
		{code: "nn.Prefixed(\"net\", m)[0].Name", text: "net.inner.weight"},
		{code: "seq := nn.NewSequential(m)\nseq.Forward(tensors.Ones(3, 2)).Shape()", text: "[3 2]"},
	})
}

func TestWhatAFinalExpressionShows(t *testing.T) {
	runSteps(t, []step{
		{code: `fmt.Println("hi")`, text: "", out: "hi\n"},
		{code: `fmt.Printf("%d\n", 3)`, text: "", out: "3\n"},
		{code: "func noResult() {}\nnoResult()", text: ""},
		{code: "println2 := 5\nprintln2", text: "5"},
		{code: `strconv.Atoi("12")`, text: ""},
		{code: `strconv.ParseBool("true")`, text: "(true, <nil>)"},
		{code: "func fail() error { return nil }\nfail()", text: ""},
		{code: "func two() (string, int) { return \"a\", 1 }\ntwo()", text: "(a, 1)"},
		{code: "var m = map[string]int{\"a\": 1}\ndelete(m, \"a\")", text: ""},
		{code: "len(m)", text: "0"},
		{code: "func decl() {}", text: ""},
		{code: `"text"`, text: "text"},
		{code: "3.5 * 2", text: "7"},
	})
}

func TestModernGoIsRewritten(t *testing.T) {
	runSteps(t, []step{
		{code: "sum := 0\nfor i := range 5 { sum += i }\nsum", text: "10"},
		{code: "n := 3\ntotal := 0\nfor range n { total++ }\ntotal", text: "3"},
		{code: "func count(n int) func(func(int) bool) {\n\treturn func(yield func(int) bool) {\n\t\tfor i := 0; i < n; i++ {\n\t\t\tif !yield(i) { return }\n\t\t}\n\t}\n}", text: ""},
		{code: "got := []int{}\nfor v := range count(10) {\n\tif v == 1 { continue }\n\tif v > 3 { break }\n\tgot = append(got, v)\n}\ngot", text: "[0 2 3]"},
		{code: "func firstOver(limit int) (int, bool) {\n\tfor v := range count(10) {\n\t\tif v > limit {\n\t\t\treturn v * 10, true\n\t\t}\n\t}\n\treturn -1, false\n}", text: ""},
		{code: "firstOver(4)", text: "(50, true)"},
		{code: "firstOver(20)", text: "(-1, false)"},
		{code: "min(3, 1, 2)", text: "1"},
		{code: "f := 2.5\nmax(f, 1)", text: "2.5"},
		{code: "mm := map[string]int{\"a\": 1, \"b\": 2}\nclear(mm)\nlen(mm)", text: "0"},
		{code: "type box struct{ n int }\nbx := box{3}\nk := 0\nfor range bx.n { k++ }\nk", text: "3"},
		{code: "var sb strings.Builder\nsb.WriteString(\"abcd\")", text: ""},
		{code: "m := 0\nfor range sb.Len() { m++ }\nm", text: "4"},
		{code: "sl := []int{1, 2}\nclear(sl)\nsl", text: "[0 0]"},
	})
}

func TestStandardLibraryIsImportedAutomatically(t *testing.T) {
	runSteps(t, []step{
		{code: `strings.ToUpper("go")`, text: "GO"},
		{code: `math.Sqrt(16)`, text: "4"},
		{code: `x := rand.New(rand.NewSource(1)).Intn(1)` + "\nx", text: "0"},
		{code: `sort.Ints([]int{2, 1})`, text: ""},
		{code: "import . \"math\"\nFloor(2.5)", text: "2"},
	})
}

func TestErrorsPointAtCellLines(t *testing.T) {
	s, _ := newSession(t)
	ctx := context.Background()
	r := s.Execute(ctx, "a := 1\n\nb := a + undefinedName")
	if r.Error == nil || r.Error.Ename != "CompileError" || !strings.Contains(r.Error.Evalue, "line 3:") || !strings.Contains(r.Error.Evalue, "undefinedName") {
		t.Fatalf("compile error %+v", r.Error)
	}
	r = s.Execute(ctx, "q := 1; r := q + nope")
	if r.Error == nil || !strings.Contains(r.Error.Evalue, "line 1:18: undefined: nope") {
		t.Fatalf("column after a marker: %+v", r.Error)
	}
	r = s.Execute(ctx, "q + nope2")
	if r.Error == nil || !strings.Contains(r.Error.Evalue, "line 1:5: undefined: nope2") {
		t.Fatalf("column in a final expression: %+v", r.Error)
	}
	r = s.Execute(ctx, "import \"no/such/pkg\"")
	if r.Error == nil || r.Error.Ename != "ImportError" || !strings.Contains(r.Error.Evalue, "no/such/pkg") {
		t.Fatalf("unknown import: %+v", r.Error)
	}
	r = s.Execute(ctx, "x := 1\ny := )")
	if r.Error == nil || r.Error.Ename != "SyntaxError" || !strings.Contains(r.Error.Evalue, "line 2:6") {
		t.Fatalf("syntax error %+v", r.Error)
	}
	r = s.Execute(ctx, "func boom(s string) {\n\tpanic(\"bad \" + s)\n}")
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	r = s.Execute(ctx, "v := 1\nboom(\"input\")\nv = 2")
	if r.Error == nil || r.Error.Ename != "Panic" || !strings.Contains(r.Error.Evalue, "bad input") || !strings.Contains(r.Error.Evalue, "(line 2)") {
		t.Fatalf("panic error %+v", r.Error)
	}
	tb := strings.Join(r.Error.Traceback, "\n")
	if !strings.Contains(tb, "in boom, line 2 of an earlier cell") || !strings.Contains(tb, "line 2: boom(\"input\")") {
		t.Errorf("traceback:\n%s", tb)
	}
	r = s.Execute(ctx, "func() { panic(\"in closure\") }()")
	if r.Error == nil || r.Error.Ename != "Panic" {
		t.Fatalf("closure panic %+v", r.Error)
	}
	// A cell ending in a call with no value (panic, a func() call) runs it
	// as a statement: it must still set its line before it runs.
	r = s.Execute(ctx, "w := 1\n_ = w\npanic(\"on line three\")")
	if r.Error == nil || r.Error.Ename != "Panic" || !strings.Contains(r.Error.Evalue, "(line 3)") {
		t.Fatalf("final panic %+v", r.Error)
	}
	if tb := strings.Join(r.Error.Traceback, "\n"); !strings.Contains(tb, "in cell, line 3: panic(\"on line three\")") {
		t.Errorf("final panic's traceback does not point at line 3:\n%s", tb)
	}
	r = s.Execute(ctx, "w = 2\nboom(\"last\")")
	if r.Error == nil {
		t.Fatal("boom(\"last\") did not fail")
	}
	if tb := strings.Join(r.Error.Traceback, "\n"); !strings.Contains(tb, "in cell, line 2: boom(\"last\")") {
		t.Errorf("a final call that panics: traceback does not point at line 2:\n%s", tb)
	}
	if r = s.Execute(ctx, "v + 10"); r.Error != nil || r.Data["text/plain"] != "11" {
		t.Fatalf("after panics: %+v %v", r.Error, r.Data)
	}
	r = s.Execute(ctx, "var xs []int\n_ = xs[3]")
	if r.Error == nil || r.Error.Ename != "Panic" || !strings.Contains(r.Error.Evalue, "out of range") {
		t.Fatalf("index panic %+v", r.Error)
	}
	r = s.Execute(ctx, "func g() int {\n\tfor v := range seqX {\n\t\treturn v\n\t}\n\treturn 0\n}")
	if r.Error == nil {
		t.Fatal("want an error for an unknown iterator")
	}
	r = s.Execute(ctx, "os.Exit(3)")
	if r.Error == nil || !strings.Contains(r.Error.Evalue, "os.Exit(3)") {
		t.Fatalf("os.Exit: %+v", r.Error)
	}
}

func TestCompileErrorColumnsAreTheUsersColumns(t *testing.T) {
	s, _ := newSession(t)
	for _, c := range []struct{ code, want string }{
		{"y := undefinedVar", "line 1:6: undefined: undefinedVar"},
		{"fmt.Println(nope)", "line 1:13: undefined: nope"},
		{"  y2 := undefinedVar2", "line 1:9: undefined: undefinedVar2"},
		{"x := 1\nz := x + nope3", "line 2:10: undefined: nope3"},
		{"var w = nope4", "line 1:9: undefined: nope4"},
		{"func ff() int { return nope5 }", "line 1:24: undefined: nope5"},
		{"k := 2\nfor i := range k { _ = i + nope6 }", "line 2:28: undefined: nope6"},
		{"for i := range 3 {\n\t_ = i + nope7\n}", "line 2:10: undefined: nope7"},
		{"a := 1; b := a + nope8", "line 1:18: undefined: nope8"},
		{"nope9 + 1", "line 1:1: undefined: nope9"},
		{"x := 1\nx.Foo()", "line 2:3: x.Foo undefined (type int has no field or method Foo)"},
		{"strings.NoSuch(1)", "line 1:9: undefined: strings.NoSuch"},
		{"for i := range 3 { var f float64 = \"s\"; _ = f; _ = i }", "line 1:36: cannot use \"s\" (untyped string constant) as float64 value in variable declaration"},
		{"k := 1\nk = \"str\"", "line 2:5: cannot use \"str\" (untyped string constant) as int value in assignment"},
	} {
		r := s.Execute(context.Background(), c.code)
		if r.Error == nil || !strings.Contains(r.Error.Evalue, c.want) {
			t.Errorf("%q: error %+v, want %q", c.code, r.Error, c.want)
			continue
		}
		var line, col int
		fmt.Sscanf(c.want, "line %d:%d", &line, &col)
		caret := fmt.Sprintf("     | %s^", strings.Repeat(" ", col-1))
		if tb := r.Error.Traceback; len(tb) != 3 || !strings.HasPrefix(tb[1], fmt.Sprintf("%4d | ", line)) || tb[2] != caret {
			t.Errorf("%q: traceback %q, want line %d with the caret %q", c.code, tb, line, caret)
		}
	}
}

func TestInterpreterCrashesBecomeErrorsThatNameTheConstruct(t *testing.T) {
	runSteps(t, []step{
		{code: "func Map[T any](xs []T, f func(T) T) []T { r := []T{}; for _, x := range xs { r = append(r, f(x)) }; return r }", text: ""},
		{code: "Map([]int{1, 2}, func(x int) int { return x * 2 })", text: "[2 4]"},
		{code: "ys := Map([]float64{1.5}, func(x float64) float64 { return x + 1 })\nys", text: "[2.5]"},
		{code: "type box struct{ n int }\nb := box{3}", text: ""},
		// go/types knows the type of any expression, so this range over an int is rewritten.
		{code: "func hidden() interface{} { return 2 }\nn := 0\nfor i := range hidden().(int) { n += i }\nn", text: "1"},
		{code: "b.n", text: "3"},
	})
}

func TestInterruptStopsAnInfiniteLoopAndKeepsVariables(t *testing.T) {
	s, _ := newSession(t)
	if r := s.Execute(context.Background(), "kept := 5\nspins := 0"); r.Error != nil {
		t.Fatal(r.Error)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	r := s.Execute(ctx, "for {\n\tspins++\n}")
	// An interrupt that works takes milliseconds; one that does not never ends the loop (the
	// test then times out). 10 s leaves a loaded machine room and still catches an interrupt
	// that only lands after something else happens.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	if !r.Interrupted || r.Error == nil || r.Error.Ename != "Interrupted" || r.Error.Evalue != "interrupted by user" {
		t.Fatalf("result %+v", r)
	}
	r = s.Execute(context.Background(), "kept")
	if r.Error != nil || r.Data["text/plain"] != "5" {
		t.Fatalf("after interrupt: %+v %v", r.Error, r.Data)
	}
	// A call blocked in compiled code cannot be stopped, but the cell returns
	// at once and the session keeps working while that call runs on.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start = time.Now()
	r = s.Execute(ctx, "time.Sleep(30 * time.Second)")
	if !r.Interrupted || time.Since(start) > 10*time.Second {
		t.Fatalf("interrupting a compiled call: %+v after %v", r, time.Since(start))
	}
	if r = s.Execute(context.Background(), "kept * 2"); r.Error != nil || r.Data["text/plain"] != "10" {
		t.Fatalf("after interrupting a compiled call: %+v %v", r.Error, r.Data)
	}
}

func TestStdinReadsFromTheGivenReader(t *testing.T) {
	s, out := newSession(t)
	ctx := context.Background()
	s.SetStdin(strings.NewReader("Ada\n42\n"))
	r := s.Execute(ctx, "reader := bufio.NewReader(os.Stdin)\nname, _ := reader.ReadString('\\n')\nstrings.TrimSpace(name)")
	if r.Error != nil || r.Data["text/plain"] != "Ada" {
		t.Fatalf("bufio on os.Stdin: %+v %v", r.Error, r.Data)
	}
	s.SetStdin(strings.NewReader("7\n"))
	r = s.Execute(ctx, "var n int\nfmt.Scan(&n)\nn * 6")
	if r.Error != nil || r.Data["text/plain"] != "42" {
		t.Fatalf("fmt.Scan: %+v %v", r.Error, r.Data)
	}
	s.SetStdin(nil)
	out.Reset()
	r = s.Execute(ctx, "_, err := bufio.NewReader(os.Stdin).ReadString('\\n')\nerr")
	if r.Error != nil || !strings.Contains(r.Data["text/plain"].(string), "stdin not available") {
		t.Fatalf("stdin without a reader: %+v %v", r.Error, r.Data)
	}
}

func TestRichResults(t *testing.T) {
	s, _ := newSession(t)
	ctx := context.Background()
	r := s.Execute(ctx, "image.NewRGBA(image.Rect(0, 0, 2, 2))")
	if r.Error != nil || r.Data["image/png"] == nil {
		t.Fatalf("image result: %+v %v", r.Error, r.Data)
	}
	r = s.Execute(ctx, "display.Bundle{\"text/html\": \"<b>x</b>\"}")
	if r.Error != nil || r.Data["text/html"] != "<b>x</b>" {
		t.Fatalf("bundle result: %+v %v", r.Error, r.Data)
	}
	r = s.Execute(ctx, "type card struct{ title string }\nfunc (c card) HTML() string { return \"<h1>\" + c.title + \"</h1>\" }\ncard{\"hi\"}")
	if r.Error != nil || r.Data["text/html"] != "<h1>hi</h1>" {
		t.Fatalf("cell type with HTML(): %+v %v", r.Error, r.Data)
	}
	r = s.Execute(ctx, "display.HTML(\"<i>shown</i>\")")
	if r.Error != nil || r.Data != nil {
		t.Fatalf("display call result: %+v %v", r.Error, r.Data)
	}
}

func TestMagicsRunInTheSession(t *testing.T) {
	s, out := newSession(t)
	ctx := context.Background()
	r := s.Execute(ctx, "%time total := 41 + 1")
	if r.Error != nil || !strings.Contains(out.String(), "Wall time:") {
		t.Fatalf("%%time: %+v, output %q", r.Error, out.String())
	}
	out.Reset()
	r = s.Execute(ctx, "%who")
	if r.Error != nil || !strings.Contains(out.String(), "total int") {
		t.Fatalf("%%who: %+v, output %q", r.Error, out.String())
	}
	out.Reset()
	r = s.Execute(ctx, "!echo from-shell")
	if r.Error != nil || out.String() != "from-shell\n" {
		t.Fatalf("!echo: %+v, output %q", r.Error, out.String())
	}
	r = s.Execute(ctx, "%env GOACCEL_TEST_ENV=yes\nos.Getenv(\"GOACCEL_TEST_ENV\")")
	if r.Error != nil || r.Data["text/plain"] != "yes" {
		t.Fatalf("%%env then Go: %+v %v", r.Error, r.Data)
	}
	r = s.Execute(ctx, "%nope")
	if r.Error == nil || !strings.Contains(r.Error.Evalue, "known magics") {
		t.Fatalf("unknown magic: %+v", r.Error)
	}
}

func TestUserExpressions(t *testing.T) {
	s, _ := newSession(t)
	s.Execute(context.Background(), "z := 6")
	got := s.UserExpressions(context.Background(), map[string]string{"double": "z * 2", "bad": "nope +"})
	ok := got["double"].(map[string]any)
	if ok["status"] != "ok" || ok["data"].(map[string]any)["text/plain"] != "12" {
		t.Errorf("double: %v", ok)
	}
	if bad := got["bad"].(map[string]any); bad["status"] != "error" || bad["ename"] == "" {
		t.Errorf("bad: %v", bad)
	}
}
