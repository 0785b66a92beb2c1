package interpreter

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/program"
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

func TestPanicLineIsTheStatementThatPanicked(t *testing.T) {
	p := prog(t, "crash", "func crash(n int) {\n\tfmt.Println(\"start\")\n\tif n > 0 {\n\t\tvar xs []int\n\t\t_ = xs[n]\n\t}\n}")
	i, _ := ForProgram(p.Source, interp.Options{})
	lp, err := Load(i, p.Source, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := lp.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
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
