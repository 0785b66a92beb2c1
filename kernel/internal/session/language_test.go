package session

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestGenericsDeclaredInCellsWorkAtTheTopLevel(t *testing.T) {
	runSteps(t, []step{
		{code: "func Map[T, U any](s []T, f func(T) U) []U {\n\tr := make([]U, 0, len(s))\n\tfor _, v := range s { r = append(r, f(v)) }\n\treturn r\n}"},
		{code: "words := Map([]int{1, 2}, func(n int) string { return strings.Repeat(\"a\", n) })\nwords", text: "[a aa]"},
		{code: "len(words[1])", text: "2"},
		{code: "func Sum[N int | float64](xs ...N) N { var t N; for _, x := range xs { t += x }; return t }\ntotal := Sum(1.5, 2.5)\ntotal", text: "4"},
		{code: "n := Sum[int](1, 2, 3)\nn * 2", text: "12"},
		{code: "type Stack[T any] struct{ items []T }\nfunc (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }\nfunc (s *Stack[T]) Len() int { return len(s.items) }"},
		{code: "st := &Stack[string]{}\nst.Push(\"x\")\nst.Push(\"y\")\nst.Len()", text: "2"},
		{code: "type Pair[K comparable, V any] struct{ Key K; Val V }\np := Pair[string, int]{\"a\", 1}\np.Val + 1", text: "2"},
	})
}

func TestGenericStandardPackagesWorkFromCells(t *testing.T) {
	runSteps(t, []step{
		{code: "scores := []float64{3.5, 9, 1}\nbest := slices.Max(scores)\nbest", text: "9"},
		{code: "slices.Min(scores)", text: "1"},
		{code: "slices.Sort(scores)\nscores", text: "[1 3.5 9]"},
		{code: "i, found := slices.BinarySearch(scores, 3.5)\nfmt.Println(i, found)", out: "1 true\n"},
		{code: "ages := map[string]int{\"bo\": 30, \"al\": 25}\nnames := slices.Sorted(maps.Keys(ages))\nnames", text: "[al bo]"},
		{code: "for name, age := range maps.All(ages) { if name == \"al\" { fmt.Println(age) } }", out: "25\n"},
		{code: "for i, v := range slices.Backward(names) { fmt.Println(i, v) }", out: "1 bo\n0 al\n"},
		{code: "import \"iter\"\nfunc upTo(n int) iter.Seq[int] { return func(yield func(int) bool) { for i := 0; i < n; i++ { if !yield(i) { return } } } }"},
		{code: "t := 0\nfor v := range upTo(4) { t += v }\nt", text: "6"},
		{code: "slices.Collect(upTo(3))", text: "[0 1 2]"},
		{code: "cmp.Compare(\"a\", \"b\")", text: "-1"},
		{code: "slices.SortFunc(names, func(a, b string) int { return cmp.Compare(b, a) })\nnames", text: "[bo al]"},
	})
}

func TestOneLineRangeOverFuncLoop(t *testing.T) {
	runSteps(t, []step{
		{code: "seq := func(yield func(int) bool) { for i := 1; i <= 3; i++ { if !yield(i) { return } } }"},
		{code: "t := 0\nfor v := range seq { t += v }\nt", text: "6"},
		{code: "for v := range seq { if v == 2 { break }; t += v }; t", text: "7"},
	})
}

func TestClosuresCaptureOneLoopVariablePerIteration(t *testing.T) {
	runSteps(t, []step{
		{code: "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }\nfmt.Println(fs[0](), fs[1](), fs[2]())", out: "0 1 2\n"},
		{code: "var gs []func() string\nfor _, s := range []string{\"a\", \"b\"} { gs = append(gs, func() string { return s }) }\ngs[0]() + gs[1]()", text: "ab"},
		{code: "var ps []*int\nfor i := range 3 { ps = append(ps, &i) }\nfmt.Println(*ps[0], *ps[1], *ps[2])", out: "0 1 2\n"},
		// The body's own changes carry to the next iteration, as in Go 1.22.
		{code: "var seen []int\nvar hs []func() int\nfor i := 0; i < 6; i++ {\n\tif i == 1 { i += 2; continue }\n\tseen = append(seen, i)\n\ths = append(hs, func() int { return i })\n}\nfmt.Println(seen, hs[0](), hs[1](), hs[2]())", out: "[0 4 5] 0 4 5\n"},
		{code: "func collect() []int {\n\tvar hs []func() int\n\tfor i := 0; i < 3; i++ { hs = append(hs, func() int { return i * 10 }) }\n\tvar out []int\n\tfor _, h := range hs { out = append(out, h()) }\n\treturn out\n}\ncollect()", text: "[0 10 20]"},
		{code: "var wg sync.WaitGroup\nresults := make([]int, 3)\nfor i := 0; i < 3; i++ { wg.Add(1); go func() { defer wg.Done(); results[i] = i * i }() }\nwg.Wait()\nresults", text: "[0 1 4]"},
		// Passed straight to compiled code (sync.WaitGroup.Go, time.AfterFunc), with j := i or without.
		{code: "got := make([]int, 6)\nfor i := 0; i < 3; i++ {\n\tj := i\n\twg.Go(func() { got[j] = j + 1; got[3+i] = i + 1 })\n}\nwg.Wait()\ngot", text: "[1 2 3 1 2 3]"},
		{code: "done := make(chan int, 3)\nfor _, d := range []int{3, 1, 2} { d := d; time.AfterFunc(time.Duration(d)*time.Millisecond, func() { done <- d }) }\nsum := <-done + <-done + <-done\nsum", text: "6"},
	})
}

func TestErrorsInRewrittenLoopsNameTheUsersLine(t *testing.T) {
	s, _ := newSession(t)
	r := s.Execute(context.Background(), "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i + nope }) }")
	if r.Error == nil || !strings.Contains(r.Error.Evalue, "line 2:") || !strings.Contains(r.Error.Evalue, "undefined: nope") {
		t.Fatalf("error %+v, want undefined: nope at line 2", r.Error)
	}
	if tb := r.Error.Traceback; len(tb) < 3 || !strings.HasPrefix(tb[1], "   2 | for i := 0") || !strings.HasSuffix(tb[2], strings.Repeat(" ", strings.Index(tb[1][7:], "nope"))+"^") {
		t.Errorf("traceback %q, want the user's line 2 with a caret under nope", tb)
	}
}

// A panic in a goroutine a cell started ends that goroutine only: it is
// reported on stderr and the session keeps its functions, types and values.
func TestGoroutinePanicKeepsTheSession(t *testing.T) {
	s, out := newSession(t)
	ctx := context.Background()
	run := func(code string) Result {
		t.Helper()
		r := s.Execute(ctx, code)
		if r.Error != nil {
			t.Fatalf("%q: %s: %s", code, r.Error.Ename, r.Error.Evalue)
		}
		return r
	}
	run("kept := 41\ntype box struct{ n int }\nfunc crash(m map[string]int) { m[\"x\"] = 1 }")
	out.Reset()
	run("done := make(chan bool)\ngo func() {\n\tdefer close(done)\n\tpanic(\"boom\")\n}()\n<-done\ntime.Sleep(100 * time.Millisecond)")
	if got := waitOutput(t, out, "panic in a goroutine this cell started", "panic: boom"); !strings.Contains(got, "panic in a goroutine this cell started") || !strings.Contains(got, "panic: boom") {
		t.Errorf("report %q, want the goroutine's panic named", got)
	}
	// Started by one cell, panicking while another runs: the report names the first.
	out.Reset()
	run("go func() { time.Sleep(200 * time.Millisecond); crash(nil) }()")
	run("time.Sleep(600 * time.Millisecond)")
	got := waitOutput(t, out, "started by the cell `go func() { time.Sleep(200", "assignment to entry in nil map", "in crash")
	if !strings.Contains(got, "started by the cell `go func() { time.Sleep(200") || !strings.Contains(got, "assignment to entry in nil map") || !strings.Contains(got, "in crash") {
		t.Errorf("report %q, want the starting cell, the panic and the crash frame", got)
	}
	// A compiled function started with go panicking.
	out.Reset()
	run("go regexp.MustCompile(\"(\")\ntime.Sleep(200 * time.Millisecond)")
	if !strings.Contains(waitOutput(t, out, "missing closing )"), "missing closing )") {
		t.Errorf("report %q, want regexp's panic", out.String())
	}
	r := run("b := box{kept + 1}\nb.n")
	if r.Data["text/plain"] != "42" {
		t.Errorf("after the panics: %v, want 42", r.Data)
	}
}

func TestGoroutinePanicAfterItsCellEndedIsReportedLater(t *testing.T) {
	s, out := newSession(t)
	ctx := context.Background()
	s.Execute(ctx, "go func() { time.Sleep(100 * time.Millisecond); panic(\"late\") }()")
	if !strings.Contains(waitOutput(t, out, "panic: late", "panic in a goroutine started by the cell"), "panic in a goroutine started by the cell") {
		t.Errorf("report %q, want it to name the cell that started the goroutine", out.String())
	}
	if r := s.Execute(ctx, "1 + 1"); r.Error != nil || r.Data["text/plain"] != "2" {
		t.Errorf("session after the panic: %+v", r)
	}
}

// A goroutine running a function another cell declared outlives the cell
// that started it, whose code and records the session lets go of meanwhile:
// its panic still names that cell.
func TestGoroutinePanicNamesItsForgottenCell(t *testing.T) {
	s, out := newSession(t)
	ctx := context.Background()
	if r := s.Execute(ctx, "func worker() { time.Sleep(300 * time.Millisecond); panic(\"late worker\") }"); r.Error != nil {
		t.Fatal(r.Error.Evalue)
	}
	s.Execute(ctx, "go worker()")
	for range 3 { // the starting cell's code is garbage: the next cells forget it
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
		s.Execute(ctx, "_ = 1")
	}
	got := waitOutput(t, out, "panic: late worker", "started by the cell `go worker()`")
	if !strings.Contains(got, "started by the cell `go worker()`") {
		t.Errorf("report %q, want it to name the cell `go worker()`", got)
	}
}

// Indexing a compiled function's slice result at the top level used to fail
// with "constant definition loop" (yaegi typed no index of a compiled type).
func TestIndexesOfCompiledSlicesDefineTopLevelVariables(t *testing.T) {
	runSteps(t, []step{
		{code: "import \"github.com/goaccel/goaccel/data\"\nds := data.NewTensorDataset(tensors.Zeros(10, 2), tensors.Zeros(10))\nparts := data.RandomSplit(ds, []int{6, 4}, 1)"},
		{code: "small := parts[1]\nsmall.Len()", text: "4"},
		{code: "x := data.RandomSplit(ds, []int{3, 7}, 1)[0]\nx.Len()", text: "3"},
		{code: "var y = parts[0]\ny.Len()", text: "6"},
		{code: "b := strings.Fields(\"ab cd\")[1][0]\nb", text: "99"},
		{code: "m := map[string][]int{\"a\": {1, 2}}\nfirst := m[\"a\"][1]\nfirst", text: "2"},
	})
}
