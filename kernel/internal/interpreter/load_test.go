package interpreter

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/kernel/internal/program"
)

// prog writes a worker program from declarations, as the session would.
func prog(t *testing.T, fn string, decls ...string) *program.Program {
	t.Helper()
	r := program.NewRecord()
	r.Import("fmt", "fmt")
	r.Import("os", "os")
	for i, d := range decls {
		kind, name := "func", strings.Fields(d)[1]
		switch {
		case strings.HasPrefix(d, "var "):
			kind = "var"
		case strings.HasPrefix(d, "type "):
			kind = "type"
		}
		if i := strings.IndexAny(name, "(["); i >= 0 {
			name = name[:i]
		}
		r.Define(program.Decl{Kind: kind, Names: []string{name}, Text: d, At: program.Origin{Cell: i + 1, Line: 1, Col: 1}})
	}
	p, err := r.Program(fn)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadRunsModernGoAndItsVars(t *testing.T) {
	p := prog(t, "total",
		"var base = 100",
		"func total(n int) int {\n\ts := base\n\tfor i := range n {\n\t\ts += max(i, 1)\n\t}\n\tclear(map[int]int{})\n\treturn s\n}")
	i, err := ForProgram(p.Source, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lp, err := Load(i, p.Source, true)
	if err != nil {
		t.Fatalf("Load: %v\n%s", err, p.Source)
	}
	if err := lp.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	fn, err := lp.Func("total")
	if err != nil {
		t.Fatal(err)
	}
	if got := fn.Call([]reflect.Value{reflect.ValueOf(4)})[0].Int(); got != 100+1+1+2+3 {
		t.Errorf("total(4) = %d; want 107", got)
	}
	if _, err := lp.Func("base"); err == nil {
		t.Error("Func of a variable: want an error")
	}
}

// loadAndRun loads p's program marked (as workers load theirs) and runs its initializers.
func loadAndRun(t *testing.T, p *program.Program) *Program {
	t.Helper()
	i, _ := ForProgram(p.Source, interp.Options{})
	lp, err := Load(i, p.Source, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := lp.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return lp
}

func TestPanicLineIsTheStatementThatPanicked(t *testing.T) {
	p := prog(t, "crash", "func crash(n int) {\n\tfmt.Println(\"start\")\n\tif n > 0 {\n\t\tvar xs []int\n\t\t_ = xs[n]\n\t}\n}")
	lp := loadAndRun(t, p)
	fn, _ := lp.Func("crash")
	func() {
		defer func() { recover() }()
		fn.Call([]reflect.Value{reflect.ValueOf(3)})
	}()
	o, ok := p.Map.Lookup(lp.PanicLine(), 0)
	if !ok || o.Line != 5 {
		t.Errorf("panic line maps to %v (%v); want line 5 of the cell, the index expression", o, ok)
	}
}

// TestPositionFollowsARunningProgram: Position reads the line of the statement running now while
// the program runs on another goroutine (under -race too: the read does not synchronise with the
// program's marked statements, by design), and reads PanicLine's line once it stopped.
func TestPositionFollowsARunningProgram(t *testing.T) {
	p := prog(t, "spin", "func spin(stop chan bool) int {\n\tn := 0\n\tfor {\n\t\tselect {\n\t\tcase <-stop:\n\t\t\treturn n\n\t\tdefault:\n\t\t\tn++\n\t\t}\n\t}\n}")
	lp := loadAndRun(t, p)
	position := lp.Position()
	fn, _ := lp.Func("spin")
	stop, done := make(chan bool), make(chan int)
	go func() { done <- int(fn.Call([]reflect.Value{reflect.ValueOf(stop)})[0].Int()) }()
	seen := map[int]bool{}
	for deadline := time.Now().Add(10 * time.Second); len(seen) < 2 && time.Now().Before(deadline); {
		if o, ok := p.Map.Lookup(position(), 0); ok {
			seen[o.Line] = true
		}
	}
	close(stop)
	<-done
	for line := range seen {
		if line < 2 || line > 9 {
			t.Errorf("Position read cell line %d while spin ran; want one of its statements, lines 2-9", line)
		}
	}
	if len(seen) < 2 {
		t.Errorf("Position read the lines %v while spin ran; want it to follow the loop's statements", seen)
	}
	if position() != lp.PanicLine() {
		t.Errorf("after the run Position reads %d, PanicLine %d", position(), lp.PanicLine())
	}
}

func TestCheckReportsErrorsAtProgramPositions(t *testing.T) {
	p := prog(t, "f", "type T struct{ B int }", "func f(t T) int {\n\treturn t.A\n}")
	err := Check(p.Source)
	if err == nil {
		t.Fatal("Check of a program using a missing field: want an error")
	}
	if got := p.Map.Translate(err.Error()); !strings.Contains(got, "cell [2], line 2:") {
		t.Errorf("translated error %q; want it at cell [2], line 2", got)
	}
	var pe interp.Panic
	if errors.As(err, &pe) {
		t.Error("Check ran the program")
	}
}

func TestProgramsImportingGenericPackagesLoad(t *testing.T) {
	r := program.NewRecord()
	r.Import("slices", "slices")
	r.Define(program.Decl{Kind: "func", Names: []string{"top"}, Text: "func top(xs []int) int { return slices.Max(xs) }", At: program.Origin{Cell: 1, Line: 1, Col: 1}})
	p, err := r.Program("top")
	if err != nil {
		t.Fatal(err)
	}
	i, err := ForProgram(p.Source, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lp, err := Load(i, p.Source, true)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if err := lp.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	fn, _ := lp.Func("top")
	if got := fn.Call([]reflect.Value{reflect.ValueOf([]int{3, 9, 2})})[0].Int(); got != 9 {
		t.Errorf("top = %d; want 9", got)
	}
}

func TestGenericSourcesAreCompiledOnlyForProgramsImportingThem(t *testing.T) {
	r := program.NewRecord()
	r.Import("slices", "slices")
	r.Define(program.Decl{Kind: "func", Names: []string{"top"}, Text: "func top(xs []int) int { return slices.Max(xs) }", At: program.Origin{Cell: 1, Line: 1, Col: 1}})
	generic, err := r.Program("top")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what, src string
		want      bool
	}{
		{"a program importing slices", generic.Source, true},
		{"a program importing fmt and os", prog(t, "f", "func f() { fmt.Println(os.Args) }").Source, false},
	} {
		i, err := ForProgram(c.src, interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Without its table (only a program importing slices loads it), only
		// yaegi's interpreted slices can be imported.
		_, err = i.Eval(`import "slices"`)
		if compiled := err == nil; compiled != c.want {
			t.Errorf("%s: yaegi's slices source compiled = %v; want %v", c.what, compiled, c.want)
		}
	}
}

func TestPanicLineOfAGoroutineIsItsStatement(t *testing.T) {
	// Program lines: 7 func start, 8 go func() {, 9 var m, 10 if, 11 m[n] = 1.
	p := prog(t, "start", "func start(n int) {\n\tgo func() {\n\t\tvar m map[int]int\n\t\tif n > 0 {\n\t\t\tm[n] = 1\n\t\t}\n\t}()\n}")
	lines := make(chan int, 1)
	var lp *Program
	i, _ := ForProgram(p.Source, interp.Options{Stderr: io.Discard, Go: func(run func()) {
		go func() {
			defer func() {
				recover()
				lines <- lp.PanicLine()
			}()
			run()
		}()
	}})
	lp, err := Load(i, p.Source, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := lp.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	fn, _ := lp.Func("start")
	fn.Call([]reflect.Value{reflect.ValueOf(3)})
	if line := <-lines; line != 11 {
		t.Errorf("PanicLine after a panic in a goroutine = %d; want 11, its statement\n%s", line, p.Source)
	}
}

func TestInFrameTellsTheLinesOfTheFramesFunction(t *testing.T) {
	// Program lines: 7 func crash, 8 done, 9 go func() {, 10 var m, 11 if,
	// 12 m[n] = 1, 13 }, 14 }(), 15 <-done, 16 }, 19 func other, 20 return.
	p := prog(t, "crash",
		"func crash(n int) {\n\tdone := make(chan bool, other())\n\tgo func() {\n\t\tvar m map[int]int\n\t\tif n > 0 {\n\t\t\tm[n] = 1\n\t\t}\n\t}()\n\t<-done\n}",
		"func other() int {\n\treturn 1\n}")
	i, _ := ForProgram(p.Source, interp.Options{})
	lp, err := Load(i, p.Source, true)
	if err != nil {
		t.Fatal(err)
	}
	if l := strings.Split(p.Source, "\n"); l[8] != "\tgo func() {" || l[19] != "\treturn 1" {
		t.Fatalf("the program's lines moved:\n%s", p.Source)
	}
	for _, c := range []struct {
		at, line, col int
		want          bool
	}{
		{12, 10, 3, true},  // the literal's statement, its frame
		{11, 10, 3, true},  // the literal's if
		{15, 10, 3, false}, // the enclosing function's statement, set by another goroutine
		{20, 10, 3, false}, // another function
		{0, 10, 3, false},  // no line recorded
		{15, 8, 2, true},   // the enclosing function's frame
		{12, 8, 2, false},  // a line of the literal nested in it
		{9, 8, 2, true},    // the go statement, on the line the literal starts
		{20, 20, 2, true},
		{12, 3, 1, false}, // a frame outside any function
	} {
		if got := lp.InFrame(c.at, c.line, c.col); got != c.want {
			t.Errorf("InFrame(%d, %d, %d) = %v; want %v", c.at, c.line, c.col, got, c.want)
		}
	}
	for _, c := range []struct {
		line int
		fn   string
		ok   bool
	}{{9, "main.crash", true}, {8, "", false}, {10, "", false}} {
		if fn, ok := lp.GoStatementAt(c.line); fn != c.fn || ok != c.ok {
			t.Errorf("GoStatementAt(%d) = %q, %v; want %q, %v", c.line, fn, ok, c.fn, c.ok)
		}
	}
}
