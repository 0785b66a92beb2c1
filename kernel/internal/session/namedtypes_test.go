package session

import (
	"fmt"
	"go/format"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// sweepType is a named type of the sweep: its declaration and a value of it.
type sweepType struct {
	name  string // the type's name
	decl  string // its declaration and methods (and the types it uses)
	value string // an expression of the type (or of a pointer to it)
	under string // a type of the same underlying type, which a type switch must not take it for
	ptr   bool   // value is a pointer to the named type
	errT  string // the type errors.As looks for, if the type is an error
	addr  bool   // the value prints as an address (a func or a chan): no %d or %x
}

// sweepTypes are named types of every kind, with and without methods, on
// values and pointers.
var sweepTypes = []sweepType{
	{name: "Point", decl: "type Point struct {\n\tX int\n\tY string `json:\"y\"`\n\tz bool\n}", value: `Point{1, "a", true}`, under: "struct {\n\tX int\n\tY string `json:\"y\"`\n\tz bool\n}"},
	{name: "PointPtr", decl: "type PointPtr struct{ X, Y int }", value: `&PointPtr{1, 2}`, ptr: true},
	{name: "Twin", decl: "type Twin struct{ X, Y int }\n\ntype Other struct{ X, Y int }", value: `Twin{3, 4}`, under: "Other"},
	{name: "Named", decl: "type Named struct{ N string }\n\nfunc (n Named) String() string { return \"Named(\" + n.N + \")\" }", value: `Named{"n"}`},
	{name: "PtrStr", decl: "type PtrStr struct{ N int }\n\nfunc (p *PtrStr) String() string { return fmt.Sprint(\"PtrStr \", p.N) }", value: `PtrStr{2}`},
	{name: "PtrStrPtr", decl: "type PtrStrPtr struct{ N int }\n\nfunc (p *PtrStrPtr) String() string { return fmt.Sprint(\"PtrStrPtr \", p.N) }", value: `&PtrStrPtr{3}`, ptr: true},
	{name: "Celsius", decl: "type Celsius float64", value: `Celsius(36.6)`, under: "float64"},
	{name: "Temp", decl: "type Temp float64\n\nfunc (t Temp) String() string { return fmt.Sprintf(\"%.1f°\", float64(t)) }", value: `Temp(21.5)`, under: "float64"},
	{name: "Count", decl: "type Count int", value: `Count(7)`, under: "int"},
	{name: "Errno", decl: "type Errno int\n\nfunc (e Errno) Error() string { return fmt.Sprint(\"errno \", int(e)) }", value: `Errno(2)`, under: "int", errT: "Errno"},
	{name: "Color", decl: "type Color string", value: `Color("red")`, under: "string"},
	{name: "Suit", decl: "type Suit string\n\nfunc (s Suit) String() string { return \"suit:\" + string(s) }", value: `Suit("hearts")`, under: "string"},
	{name: "Ints", decl: "type Ints []int", value: `Ints{1, 2}`, under: "[]int"},
	{name: "Path", decl: "type Path []string\n\nfunc (p Path) String() string { return strings.Join(p, \"/\") }", value: `Path{"a", "b"}`, under: "[]string"},
	{name: "Table", decl: "type Table map[string]int", value: `Table{"a": 1, "b": 2}`, under: "map[string]int"},
	{name: "Op", decl: "type Op func(int) int", value: `Op(func(x int) int { return x + 1 })`, under: "func(int) int", addr: true},
	{name: "Pipe", decl: "type Pipe chan int", value: `make(Pipe)`, under: "chan int", addr: true},
	{name: "Money", decl: "type Money struct{ Cents int }\n\nfunc (m Money) MarshalJSON() ([]byte, error) {\n\treturn []byte(fmt.Sprintf(\"\\\"$%d.%02d\\\"\", m.Cents/100, m.Cents%100)), nil\n}", value: `Money{1234}`},
	{name: "Stamp", decl: "type Stamp struct{ S int }\n\nfunc (s *Stamp) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprint(s.S * 10)), nil }", value: `&Stamp{4}`, ptr: true},
	{name: "Order", decl: "type Label struct{ L string }\n\nfunc (l Label) String() string { return \"label \" + l.L }\n\ntype Order struct {\n\tID   int      `json:\"id\"`\n\tItem Label    `json:\"item,omitempty\"`\n\tTags []string `json:\"tags\"`\n\tNote string   `json:\"-\"`\n}", value: `Order{ID: 9, Item: Label{"pen"}, Tags: []string{"x"}, Note: "n"}`},
	{name: "Invoice", decl: "type Cost struct{ C int }\n\nfunc (c Cost) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprint(c.C)), nil }\n\ntype Invoice struct {\n\tID    int  `json:\"id\"`\n\tPrice Cost `json:\"price\"`\n}", value: `Invoice{ID: 1, Price: Cost{250}}`},
	{name: "NotFound", decl: "type NotFound struct{ Name string }\n\nfunc (e *NotFound) Error() string { return e.Name + \" not found\" }", value: `&NotFound{"key"}`, ptr: true, errT: "*NotFound"},
	{name: "BadInput", decl: "type BadInput struct{ Field string }\n\nfunc (e BadInput) Error() string { return \"bad \" + e.Field }", value: `BadInput{"age"}`, errT: "BadInput"},
}

// sweepHolder is a way of keeping a value in an interface, and what the
// program does with it there.
type sweepHolder struct {
	name  string
	decl  string // declarations ({V} the value, {T} its type, {E} what errors.As looks for)
	body  string // main's body
	needs string // "String", "Error": only for types with the method in their method set
}

var sweepHolders = []sweepHolder{
	{name: "any variable", body: "var x any = {V}\nuse(x)"},
	{name: "any parameter", body: "use({V})"},
	{name: "slice of any", body: "xs := []any{{V}, 1}\nuse(xs[0])\nfmt.Println(xs)\nfmt.Printf(\"%v %+v %T\\n\", xs, xs, xs)"},
	{name: "map value", body: "m := map[string]any{\"k\": {V}}\nuse(m[\"k\"])\nfmt.Println(m)\nfmt.Printf(\"%v %T\\n\", m, m)"},
	{name: "struct field", decl: "type holder struct {\n\tX any\n\tY fmt.Stringer\n}", body: "h := holder{X: {V}}\nuse(h.X)\nfmt.Println(h)\nfmt.Printf(\"%v %+v\\n\", h, h)"},
	{name: "channel of any", body: "ch := make(chan any, 1)\nch <- {V}\nuse(<-ch)"},
	{name: "returned as any", decl: "func get() any { return {V} }", body: "use(get())"},
	{name: "fmt.Stringer variable", needs: "String", decl: "func show(s fmt.Stringer) { fmt.Printf(\"%v|%T|%s\\n\", s, s, s.String()) }", body: "var s fmt.Stringer = {V}\nuse(s)\nfmt.Println(s.String())\nfmt.Printf(\"%v %T\\n\", s, s)\nshow(s)"},
	{name: "cell interface variable", needs: "String", decl: "type shower interface{ String() string }\n\nfunc show(s shower) { fmt.Printf(\"%v|%T|%+v|%s\\n\", s, s, s, s.String()) }", body: "var s shower = {V}\nuse(s)\nshow(s)\nvar t shower\nt = {V}\nfmt.Printf(\"%v %T\\n\", t, t)\nss := []shower{s, t}\nfmt.Println(ss)"},
	{name: "error variable", needs: "Error", decl: "func fail() error { return {V} }", body: "var err error = {V}\nuse(err)\nfmt.Println(err.Error())\nfmt.Printf(\"%v %T\\n\", err, err)\nuse(fail())\nwrapped := fmt.Errorf(\"ctx: %w\", fail())\nfmt.Println(wrapped)\nvar target {E}\nif errors.As(wrapped, &target) {\n\tfmt.Printf(\"as %T %v\\n\", target, target)\n}\nfmt.Println(errors.Is(wrapped, err), errors.Unwrap(wrapped) == err)"},
	{name: "reflect", body: "refl({V})\nvar x any = {V}\nrefl(x)"},
}

// sweepUse is the function every holder gives the value to: %T, %v, %+v,
// %#v and the other verbs, %p, the Print functions, a type switch and
// assertions, and json.Marshal.
func sweepUse(t sweepType) string {
	var b strings.Builder
	b.WriteString("func use(x any) {\n")
	b.WriteString("\tfmt.Printf(\"%T|%v|%+v|%#v\\n\", x, x, x, x)\n")
	if t.addr {
		b.WriteString("\tfmt.Printf(\"%s|%q\\n\", x, x)\n")
	} else {
		b.WriteString("\tfmt.Printf(\"%s|%d|%q|%x\\n\", x, x, x, x)\n")
	}
	b.WriteString("\tfmt.Printf(\"%p|%8v|%-6v|\\n\", x, x, x)\n")
	b.WriteString("\tfmt.Println(x, []any{x}, fmt.Sprint(x), fmt.Sprint(\"s\", x, 1))\n")
	b.WriteString("\tswitch y := x.(type) {\n")
	fmt.Fprintf(&b, "\tcase %s:\n\t\tfmt.Println(\"case %s\", y)\n", t.typ(), t.typ())
	if !t.ptr {
		fmt.Fprintf(&b, "\tcase *%s:\n\t\tfmt.Println(\"case *%s\", y)\n", t.name, t.name)
	}
	if t.under != "" {
		fmt.Fprintf(&b, "\tcase %s:\n\t\tfmt.Println(\"case underlying\", y)\n", t.under)
	}
	b.WriteString("\tcase fmt.Stringer:\n\t\tfmt.Println(\"case Stringer\", y.String())\n")
	b.WriteString("\tcase error:\n\t\tfmt.Println(\"case error\", y.Error())\n")
	b.WriteString("\tdefault:\n\t\tfmt.Println(\"default\")\n\t}\n")
	fmt.Fprintf(&b, "\tv, ok := x.(%s)\n\tfmt.Println(\"assert\", v, ok)\n", t.typ())
	b.WriteString("\t_, isS := x.(fmt.Stringer)\n\t_, isE := x.(error)\n\t_, isM := x.(json.Marshaler)\n\tfmt.Println(\"implements\", isS, isE, isM)\n")
	if t.under != "" {
		fmt.Fprintf(&b, "\t_, isU := x.(%s)\n\tfmt.Println(\"underlying\", isU)\n", t.under)
	}
	b.WriteString("\tif bs, err := json.Marshal(x); err != nil {\n\t\tfmt.Println(\"json error:\", err)\n\t} else {\n\t\tfmt.Println(\"json\", string(bs))\n\t}\n")
	b.WriteString("}\n\n")
	b.WriteString("func refl(x any) {\n\trt := reflect.TypeOf(x)\n\tfmt.Println(rt.String(), rt.Name(), rt.Kind(), reflect.ValueOf(x).Kind())\n}\n")
	return b.String()
}

func (t sweepType) typ() string {
	if t.ptr {
		return "*" + t.name
	}
	return t.name
}

// has reports whether t (or the pointer the value is) has method m in its
// method set.
func (t sweepType) has(m string) bool {
	recv := `\w+ ` + t.name
	if t.ptr {
		recv = `\w+ \*?` + t.name
	}
	return regexp.MustCompile(`func \(` + recv + `\) ` + m + `\(`).MatchString(t.decl)
}

// sweepProgram is the program of one row: type t held by h.
func sweepProgram(t sweepType, h sweepHolder) (string, error) {
	r := strings.NewReplacer("{V}", t.value, "{T}", t.typ(), "{E}", t.errT)
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"errors\"\n\t\"fmt\"\n\t\"reflect\"\n\t\"strings\"\n)\n\n")
	b.WriteString(t.decl + "\n\n")
	if h.decl != "" {
		b.WriteString(r.Replace(h.decl) + "\n\n")
	}
	b.WriteString(sweepUse(t) + "\n")
	b.WriteString("var (\n\t_ = strings.Join\n\t_ = errors.New\n)\n\n")
	b.WriteString("func main() {\n\t" + strings.ReplaceAll(r.Replace(h.body), "\n", "\n\t") + "\n}\n")
	src, err := format.Source([]byte(b.String()))
	return string(src), err
}

// sweepRows are the programs of the sweep, one per type and holder that
// suits it.
func sweepRows(t *testing.T) []corpusProgram {
	t.Helper()
	var rows []corpusProgram
	for _, ty := range sweepTypes {
		for _, h := range sweepHolders {
			if h.needs == "String" && !ty.has("String") || h.needs == "Error" && ty.errT == "" {
				continue
			}
			src, err := sweepProgram(ty, h)
			if err != nil {
				t.Fatalf("%s held in %s: %v", ty.name, h.name, err)
			}
			rows = append(rows, corpusProgram{name: ty.name + "/" + strings.ReplaceAll(h.name, " ", "-"), src: src})
		}
	}
	return rows
}

// TestNamedTypesBehindInterfacesRunAsGo sweeps the interpreter's handling
// of values of named types kept in interfaces: a table of programs, one per
// named type (struct, pointer to struct, float, int, string, slice, map,
// func, chan; with and without String, Error and MarshalJSON methods on
// value and pointer receivers; struct tags) and way of keeping it (an
// interface variable, an any parameter, a slice of interfaces, a map value,
// a struct field of interface type, a channel of any, a result of type any,
// fmt.Stringer, an interface the program declares, error, reflect), each
// printing it with every verb, switching on its type, asserting it to
// interfaces, marshalling it to JSON, or asking errors.As and errors.Is for
// it. The expected outputs are what the programs print built by the go
// command in this test, as TestCorpusRunsAsGo does. Each program runs as a
// user pastes it, as two cells (declarations, then main's body) and whole;
// every row must print what the compiled program prints, or end with an
// error naming what the interpreter does not support.
func TestNamedTypesBehindInterfacesRunAsGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs about 180 programs")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	rows := sweepRows(t)
	if only := os.Getenv("GOACCEL_SWEEP"); only != "" {
		re := regexp.MustCompile(only)
		rows = slices.DeleteFunc(rows, func(p corpusProgram) bool { return !re.MatchString(p.name) })
	}
	runWithGo(t, rows)
	for _, mode := range []string{"cells", "whole"} {
		t.Run(mode, func(t *testing.T) {
			same, different, refused := 0, 0, map[string]int{}
			for _, p := range rows {
				cells := []string{wholeProgram(p.src)}
				if mode == "cells" {
					decls, body, err := splitProgram(p.src)
					if err != nil {
						t.Fatalf("%s: %v", p.name, err)
					}
					cells = []string{decls, body}
				}
				o := runCorpusCells(t, p.name, cells)
				switch {
				case o.err == nil && sameOutput(p.stdout, o.stdout) && sameOutput(p.stderr, o.stderr):
					same++
				case o.err != nil && namesUnsupported(o.err) && strings.HasPrefix(normalPointers(p.stdout), normalPointers(o.stdout)):
					refused[refusalKind(o.err.Evalue)]++
				default:
					different++
					t.Errorf("different: %s", describeDifference(p, o))
				}
			}
			t.Logf("%s: %d rows, %d print what go run prints, %d refused with an error naming the construct, %d different", mode, len(rows), same, len(rows)-same-different, different)
			kinds := slices.Sorted(maps.Keys(refused))
			for _, k := range kinds {
				t.Logf("refused %d×: %s", refused[k], k)
			}
		})
	}
}

// refusalKind is an error's message with the type it names and its line
// written alike, to count refusals by construct.
func refusalKind(msg string) string {
	msg = regexp.MustCompile(` \(line \d+\)$`).ReplaceAllString(msg, "")
	return regexp.MustCompile(`\*?main\.\w+|\b[A-Z]\w*'s`).ReplaceAllString(msg, "T")
}
