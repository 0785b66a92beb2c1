package interp_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// goaccelCase is a program for one of goaccel's changes (README.goaccel.md
// names each): its sources, evaluated one after the other in one
// interpreter as a REPL or a notebook would, and what they print.
type goaccelCase struct {
	name    string
	srcs    []string
	opts    interp.Options
	stdout  string
	stderr  string
	evalErr string // a substring of the last evaluation's error ("": none)
	// deferred runs RunDeferred after the sources; its error must contain
	// deferredErr ("": none).
	deferred    bool
	deferredErr string
	uses        interp.Exports // tables besides the standard library's
}

var goaccelCases = []goaccelCase{
	{
		name: "comma-ok defines at the top level",
		srcs: []string{
			`m := map[string]int{"a": 1}; ch := make(chan int, 1); ch <- 3; var x any = 3`,
			`v, ok := m["a"]; w, ok2 := <-ch; n, ok3 := x.(int); s, ok4 := x.(string)`,
			`println(v, ok, w, ok2, n, ok3, s == "", ok4)`,
		},
		stderr: "1 true 3 true 3 true true false\n",
	},
	{
		name:   "comma-ok package-level var",
		srcs:   []string{"package main\nimport \"fmt\"\nvar m = map[string]int{\"a\": 1}\nvar v, ok = m[\"a\"]\nvar _, missing = m[\"b\"]\nfunc main() { fmt.Println(v, ok, missing) }"},
		stdout: "1 true false\n",
	},
	{
		name:   "print and println write to stderr as the runtime formats",
		srcs:   []string{`x := 2.5; print(1, "a", x, true); print("\n"); var f32 float32 = 1.0 / 3; println(int8(-3), f32, 1e21, complex(1, 2), uintptr(255), "s", 1.0/3, -0.0, 7)`},
		stderr: "1a2.5true\n-3 0.33333334 1e+21 (1+2i) 255 s 0.3333333333333333 0 7\n",
	},
	{
		name:   "NoMain leaves main to the caller",
		opts:   interp.Options{NoMain: true},
		srcs:   []string{"package main\nimport \"fmt\"\nfunc main() { fmt.Println(\"main\") }", `fmt.Println("later")`, `main()`},
		stdout: "later\nmain\n",
	},
	{
		name:   "top-level deferred calls run once at the end of their evaluation",
		srcs:   []string{`import "fmt"`, `defer fmt.Println("first deferred"); defer fmt.Println("second"); fmt.Println("body")`, `fmt.Println("next")`},
		stdout: "body\nsecond\nfirst deferred\nnext\n",
	},
	{
		name:     "TopLevelDefers keeps deferred calls until RunDeferred, last first",
		opts:     interp.Options{TopLevelDefers: true},
		srcs:     []string{`import "fmt"`, `x := 1; defer fmt.Println("a", x); x = 2`, `defer func() { fmt.Println("b", x) }(); fmt.Println("body")`},
		deferred: true,
		stdout:   "body\nb 2\na 1\n",
	},
	{
		name:    "TopLevelDefers: a top-level panic runs the deferred calls, which can recover it",
		opts:    interp.Options{TopLevelDefers: true},
		srcs:    []string{`import "fmt"`, `defer fmt.Println("outer")`, `defer func() { fmt.Println("recovered:", recover()) }(); fmt.Println("before"); panic("boom"); fmt.Println("not reached")`},
		stdout:  "before\nrecovered: boom\nouter\n",
		evalErr: "recovered by a deferred call",
	},
	{
		name:    "TopLevelDefers: an unrecovered top-level panic is the evaluation's error",
		opts:    interp.Options{TopLevelDefers: true},
		srcs:    []string{`import "fmt"`, `defer fmt.Println("deferred"); panic("boom")`},
		stdout:  "deferred\n",
		stderr:  "1:34: panic: main(...)\n",
		evalErr: "boom",
	},
	{
		name:     "RunDeferred: a panic in a deferred call is recovered by a later one",
		opts:     interp.Options{TopLevelDefers: true},
		srcs:     []string{`import "fmt"`, `defer func() { fmt.Println("got", recover()) }(); defer func() { panic("in defer") }(); fmt.Println(recover())`},
		deferred: true,
		stdout:   "<nil>\ngot in defer\n",
		stderr:   "1:93: panic: main.func(...)\n",
	},
	{
		name:   "a deferred call's arguments are evaluated by the defer statement",
		srcs:   []string{"package main\nimport \"fmt\"\nfunc show(a int) { fmt.Println(\"show\", a) }\nfunc main() {\n\tx := 1\n\tdefer fmt.Println(\"compiled\", x)\n\tdefer show(x)\n\tdefer println(\"builtin\", x)\n\ts := []int{1}\n\tdefer fmt.Println(s[0], len(s))\n\tx = 2\n\ts[0] = 5\n}"},
		stdout: "1 1\nshow 1\ncompiled 1\n",
		stderr: "builtin 1\n",
	},
	{
		name:   "a function literal passed to compiled code captures this iteration's variables",
		srcs:   []string{"package main\nimport (\"fmt\"; \"sort\"; \"sync\")\nfunc main() {\n\tvar wg sync.WaitGroup\n\tvar mu sync.Mutex\n\tvar got []int\n\tfor i := 0; i < 3; i++ {\n\t\tj := i\n\t\twg.Add(1)\n\t\tgo func(f func()) { f(); wg.Done() }(func() { mu.Lock(); got = append(got, j); mu.Unlock() })\n\t}\n\twg.Wait()\n\tsort.Ints(got)\n\tfmt.Println(got)\n}"},
		stdout: "[0 1 2]\n",
	},
	{
		name:   "struct fields keep the names written",
		srcs:   []string{"package main\nimport (\"encoding/json\"; \"fmt\"; \"reflect\")\ntype point struct{ x, Y int }\nfunc main() {\n\tp := point{1, 2}\n\tp.x += 2\n\tb, _ := json.Marshal(p)\n\tfmt.Printf(\"%+v %s %s\\n\", p, b, reflect.TypeOf(struct{ x, Y int }{}).Field(0).Name)\n}"},
		stdout: "{x:3 Y:2} {\"Y\":2} x\n",
	},
	{
		name:   "printing functions show interpreted types as Go does",
		srcs:   []string{"package main\nimport \"fmt\"\ntype point struct{ x, y int }\ntype Celsius float64\nfunc (c Celsius) String() string { return fmt.Sprintf(\"%.1fC\", float64(c)) }\ntype Stack[T any] struct{ items []T }\ntype item struct{ c Celsius; C Celsius }\nfunc main() {\n\tp := point{1, 2}\n\tfmt.Printf(\"%v %+v %#v %T|%-8T|\\n\", p, p, p, p, p)\n\tfmt.Printf(\"%v %#v %.2f %T\\n\", []Celsius{1, 2}, map[string]point{\"a\": p}, Celsius(3), Stack[int]{})\n\tfmt.Println(item{1, 2}, &p, []any{Celsius(4), p})\n\tfmt.Print(\"a\", Celsius(5), \"b\", 1, 2, \"\\n\")\n}"},
		stdout: "{1 2} {x:1 y:2} main.point{x:1, y:2} main.point|main.point|\n[1.0C 2.0C] map[string]main.point{\"a\":main.point{x:1, y:2}} 3.00 main.Stack[int]\n{1 2.0C} &{1 2} [4.0C {1 2}]\na5.0Cb1 2\n",
	},
	{
		name:   "type switches and assertions tell interpreted types apart",
		srcs:   []string{"package main\nimport (\"errors\"; \"fmt\")\ntype point struct{ x, y int }\ntype Celsius float64\nfunc (c Celsius) String() string { return \"C\" }\nfunc kind(v any) string {\n\tswitch v.(type) {\n\tcase float64:\n\t\treturn \"float64\"\n\tcase Celsius:\n\t\treturn \"Celsius\"\n\tcase point:\n\t\treturn \"point\"\n\tcase fmt.Stringer:\n\t\treturn \"Stringer\"\n\t}\n\treturn \"?\"\n}\nfunc main() {\n\t_, isF := any(Celsius(1)).(float64)\n\tfmt.Println(kind(point{}), kind(Celsius(1)), kind(2.0), kind(errors.New(\"e\")), isF)\n\tvar err error = fmt.Errorf(\"w: %w\", errors.ErrUnsupported)\n\tu, ok := err.(interface{ Unwrap() error })\n\tfmt.Println(ok, u.Unwrap() == errors.ErrUnsupported)\n}"},
		stdout: "point Celsius float64 ? false\ntrue true\n",
	},
	{
		name:   "a compiled function gets a value, not the interpreter's box of it",
		srcs:   []string{"package main\nimport (\"encoding/json\"; \"fmt\")\ntype Celsius float64\nfunc (c Celsius) String() string { return \"C\" }\nfunc main() {\n\tvar x any = Celsius(1)\n\tb, _ := json.Marshal(x)\n\tfmt.Println(string(b))\n}"},
		stdout: "1\n",
	},
	{
		name:   "values of named types without methods keep their type in an interface",
		srcs:   []string{"package main\nimport \"fmt\"\ntype Celsius float64\ntype A struct{ X int }\ntype B struct{ X int }\nfunc kind(x any) string {\n\tswitch x.(type) {\n\tcase float64:\n\t\treturn \"float64\"\n\tcase Celsius:\n\t\treturn \"Celsius\"\n\tcase B:\n\t\treturn \"B\"\n\tcase A:\n\t\treturn \"A\"\n\t}\n\treturn \"?\"\n}\nfunc get() any { return Celsius(3) }\ntype PtrStr struct{ N int }\nfunc (p *PtrStr) String() string { return \"p\" }\nfunc main() {\n\tvar x any = 1.5\n\t_, ok := x.(Celsius)\n\tvar y any = Celsius(2)\n\t_, isF := y.(float64)\n\tfmt.Println(ok, isF, kind(y), kind(x), kind(A{1}), kind(B{1}), kind(get()), kind(any(A{})))\n\t_, isS := any(PtrStr{}).(fmt.Stringer)\n\t_, isSP := any(&PtrStr{}).(fmt.Stringer)\n\tfmt.Println(isS, isSP)\n\tfmt.Printf(\"%T %T %v\\n\", y, []any{A{2}}[0], map[string]any{\"b\": B{3}})\n}"},
		stdout: "false false Celsius float64 A B Celsius A\nfalse true\nmain.Celsius main.A map[b:{3}]\n",
	},
	{
		name:   "boxes inside a compiled function's arguments are opened",
		srcs:   []string{"package main\nimport (\"encoding/json\"; \"fmt\")\ntype Named struct{ N string }\nfunc (n Named) String() string { return \"Named(\" + n.N + \")\" }\ntype Money struct{ Cents int }\nfunc (m Money) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprint(m.Cents)), nil }\ntype P struct{ A int }\nfunc main() {\n\tb, err := json.Marshal([]any{Named{\"n\"}, P{1}, Money{5}})\n\tfmt.Println(string(b), err)\n\tb, err = json.Marshal(map[string]any{\"a\": Named{\"n\"}, \"b\": []any{P{2}}})\n\tfmt.Println(string(b), err)\n\tvar s fmt.Stringer = Named{\"w\"}\n\tvar x any = s\n\tb, err = json.Marshal(x)\n\tfmt.Println(string(b), err)\n}"},
		stdout: "[{\"N\":\"n\"},{\"A\":1},5] <nil>\n{\"a\":{\"N\":\"n\"},\"b\":[{\"A\":2}]} <nil>\n{\"N\":\"w\"} <nil>\n",
	},
	{
		name:   "a package has its symbol table and its functions compiled from source",
		srcs:   []string{"package errors\nfunc AsType[E error](err error) (E, bool) { e, ok := err.(E); return e, ok }", "package main\nimport (\"errors\"; \"fmt\")\ntype myErr struct{}\nfunc (*myErr) Error() string { return \"mine\" }\nfunc main() {\n\tvar err error = &myErr{}\n\te, ok := errors.AsType[*myErr](err)\n\tfmt.Println(e, ok, errors.New(\"compiled\"))\n}"},
		stdout: "mine true compiled\n",
	},
	{
		name:    "os.Exit ends the evaluation without running deferred calls",
		srcs:    []string{"package main\nimport (\"exit\"; \"fmt\")\nfunc f() { defer fmt.Println(\"deferred in f\"); exit.Exit(3) }\nfunc main() { defer fmt.Println(\"deferred in main\"); f() }"},
		uses:    interp.Exports{"exit/exit": {"Exit": reflect.ValueOf(func(code int) { panic(interp.ExitCode(code)) })}},
		evalErr: "exit status 3",
	},
	{
		name:   "variadic arguments are converted to the element type",
		srcs:   []string{"package main\nimport (\"errors\"; \"fmt\")\ntype myErr struct{}\nfunc (*myErr) Error() string { return \"mine\" }\nfunc main() { fmt.Println(errors.Join(errors.New(\"a\"), &myErr{})) }"},
		stdout: "a\nmine\n",
	},
	{
		name:   "a generic call defining several variables at the top level",
		srcs:   []string{"func pair[T any](v T) (T, bool) { return v, true }", "a, ok := pair[string](\"x\"); b, ok2 := pair(2)", "println(a, ok, b+1, ok2)"},
		stderr: "x true 3 true\n",
	},
	{
		name: "a generic type and function of another package compiled from source",
		srcs: []string{"package box\nimport \"strings\"\ntype Box[T any] struct{ v T; tag string }\nfunc (b *Box[T]) Get() T { return b.v }\nfunc New[T any](v T) *Box[T] { return &Box[T]{v, strings.ToUpper(\"b\")} }\nfunc Key[Hash any](h func() Hash) Hash { return h() }",
			"package main\nimport (\"box\"; \"fmt\"; \"time\")\ntype node struct{ n int }\nfunc main() {\n\tb := box.New(node{3})\n\tvar c box.Box[int]\n\tfmt.Println(b.Get().n, c.Get(), box.Key(time.Now).IsZero())\n}"},
		stdout: "3 0 false\n",
	},
	{
		name:   "an interface value holds the value it was made from",
		srcs:   []string{"package main\nimport \"fmt\"\ntype T struct{ n int }\nfunc (t T) String() string { return fmt.Sprint(\"T\", t.n) }\nfunc main() {\n\tv := T{1}\n\tvar s fmt.Stringer = v\n\tv.n = 2\n\tfmt.Println(s.String(), v)\n}"},
		stdout: "T1 T2\n",
	},
	{
		name: "a goroutine reads globals while later evaluations declare others",
		srcs: []string{"import (\"sync\"; \"time\")", "var mu sync.Mutex", "n := 0; stop := false",
			"go func() { for { mu.Lock(); s := stop; n++; mu.Unlock(); if s { return }; time.Sleep(time.Microsecond) } }()",
			"a1 := 1", "a2 := 2", "a3 := 3", "a4 := []int{a1, a2, a3}", "mu.Lock(); stop = true; mu.Unlock()", "println(len(a4))"},
		stderr: "3\n",
	},
	{
		name:   "an interpreted error keeps Is, As and Unwrap, and its type, in compiled code",
		srcs:   []string{"package main\nimport (\"errors\"; \"fmt\"; \"io/fs\")\ntype isErr struct{ s string }\nfunc (e isErr) Error() string { return e.s }\nfunc (e isErr) Is(t error) bool { return t == fs.ErrPermission }\nfunc main() {\n\tvar e1 error\n\te1 = isErr{\"a\"}\n\te2 := error(isErr{\"b\"})\n\tfmt.Println(errors.Is(e1, fs.ErrPermission), errors.Is(fmt.Errorf(\"w: %w\", e2), fs.ErrPermission))\n\tfmt.Printf(\"%T %v\\n\", e1, errors.Unwrap(fmt.Errorf(\"w: %w\", e1)) == e1)\n}"},
		stdout: "true true\nmain.isErr true\n",
	},
	{
		name:    "a compiled function cannot see the methods of a value inside a slice",
		srcs:    []string{"package main\nimport \"encoding/json\"\ntype Animal int\nfunc (a *Animal) UnmarshalJSON(b []byte) error { *a = 1; return nil }\nfunc main() {\n\tvar zoo []Animal\n\t_ = json.Unmarshal([]byte(`[\"x\"]`), &zoo)\n}"},
		evalErr: "json.Unmarshal of a *[]main.Animal is not supported: Animal's UnmarshalJSON method is invisible to compiled code inside a slice or an array",
	},
	{
		name:   "the variables of a top-level statement's header are its own",
		srcs:   []string{"import \"reflect\"", "for i := int16(0); i < 2; i++ {}\nfor i := 0; i < 1; i++ { println(reflect.TypeOf(i).String()) }\nif v := 1.5; v > 1 {}\nif v := 2; v > 1 { println(v + 1) }"},
		stderr: "int\n3\n",
	},
	{
		name:   "a range with a key and a value over a slice of channels",
		srcs:   []string{"package main\nimport \"fmt\"\nfunc main() {\n\tcs := []chan int{make(chan int, 1), make(chan int, 1)}\n\tfor i, c := range cs {\n\t\tc <- i * 10\n\t\tclose(c)\n\t\tfor v := range c {\n\t\t\tfmt.Println(i, v)\n\t\t}\n\t}\n}"},
		stdout: "0 0\n1 10\n",
	},
	{
		name:   "an assignment of several values, one a call, a receive or a composite literal",
		srcs:   []string{"package main\nimport \"fmt\"\nfunc f(x int) int { return x }\nfunc main() {\n\tvar b, c int\n\tb, c = f(1), 2\n\tx, y := 1, 2\n\tx, y = f(y), f(x)\n\ta, d := []int{1}, f(3)\n\tch := make(chan int, 1)\n\tch <- 5\n\tvar u, w int\n\tu, w = <-ch, 6\n\tfmt.Println(b, c, x, y, a, d, u, w)\n}"},
		stdout: "1 2 2 1 [1] 3 5 6\n",
	},
	{
		name:   "real and imag of an untyped constant",
		srcs:   []string{"package main\nimport \"fmt\"\nconst c = 3 + 4i\nfunc main() {\n\tconst r, i = real(c), imag(c)\n\tfmt.Println(r, i, real(2), imag(5))\n}"},
		stdout: "3 4 2 0\n",
	},
	{
		// Before the change, the goroutines running send shared one slice of
		// cases: one sent on the other's channel, or the other's value.
		name: "goroutines running the same select each select on their own channels",
		srcs: []string{`package main
import "fmt"
func send(id int, out, never chan int, done chan bool) {
	for i := 0; i < 20000; i++ {
		select {
		case out <- id:
		case <-never:
		}
	}
	done <- true
}
func main() {
	outs := []chan int{make(chan int, 80000), make(chan int, 80000), make(chan int, 80000), make(chan int, 80000)}
	done := make(chan bool)
	for id, out := range outs {
		go send(id, out, make(chan int), done)
	}
	for range outs {
		<-done
	}
	for id, out := range outs {
		close(out)
		n, wrong := 0, 0
		for v := range out {
			n++
			if v != id {
				wrong++
			}
		}
		fmt.Println(id, n, wrong)
	}
}`},
		stdout: "0 20000 0\n1 20000 0\n2 20000 0\n3 20000 0\n",
	},
	{
		name:   "a local type shadows a package-level type of the same name",
		srcs:   []string{"package main\nimport \"fmt\"\ntype Point struct{ X, Y int }\ntype Circle struct {\n\tPoint\n\tRadius int\n}\nfunc init() {\n\ttype Circle struct {\n\t\t*Point\n\t\tRadius int\n\t}\n\tc := Circle{&Point{1, 2}, 3}\n\tfmt.Println(c.X, c.Radius)\n}\nfunc main() {\n\ttype Point struct{ Z string }\n\tp := Point{\"z\"}\n\tfmt.Printf(\"%v %T %v\\n\", p, p, Circle{})\n}"},
		stdout: "1 3\n{z} main.Point {{0 0} 0}\n",
	},
	{
		name:   "a composite literal assigned to an interface the code declares",
		srcs:   []string{"package main\nimport \"fmt\"\ntype I interface{ M() }\ntype T struct{ S string }\nfunc (t T) M() { fmt.Println(t.S) }\nfunc main() {\n\tvar i I = T{\"hello\"}\n\ti.M()\n\tvar j I\n\tj = T{\"x\"}\n\tj.M()\n}"},
		stdout: "hello\nx\n",
	},
	{
		name:   "printing a value of an interface the code declares shows its dynamic type",
		srcs:   []string{"package main\nimport \"fmt\"\ntype I interface{ M() }\ntype T struct{ S string }\nfunc (t *T) M() {}\ntype F float64\nfunc (f F) M() {}\nfunc describe(i I) { fmt.Printf(\"(%v, %T)\\n\", i, i) }\nfunc main() {\n\tvar i I = &T{\"Hello\"}\n\tdescribe(i)\n\ti = F(3.14)\n\tdescribe(i)\n\tvar n I\n\tfmt.Println(n)\n\tfmt.Printf(\"%v %T %d\\n\", n, n, n)\n}"},
		stdout: "(&{Hello}, *main.T)\n(3.14, main.F)\n<nil>\n<nil> <nil> %!d(<nil>)\n",
	},
	{
		name:   "%p and verbs that do not suit a value print as fmt does",
		srcs:   []string{"package main\nimport (\"fmt\"; \"strings\")\ntype point struct{ x, y int }\ntype Named struct{ N string }\nfunc (n Named) String() string { return \"N\" }\ntype Money struct{ Cents int }\ntype Count int\nfunc main() {\n\tp := point{1, 2}\n\ts := fmt.Sprintf(\"%p|%v\", &p, &p)\n\tfmt.Println(strings.HasPrefix(s, \"0x\"), strings.HasSuffix(s, \"|&{1 2}\"))\n\tfmt.Printf(\"%p %p\\n\", p, Named{\"n\"})\n\tfmt.Printf(\"%s %d %s\\n\", Money{1234}, Named{\"a\"}, Count(7))\n\tfmt.Printf(\"%[1]T %[1]v %[2]p %[1]p\\n\", p, 1.5)\n}"},
		stdout: "true true\n%!p(main.point={1 2}) %!p(main.Named={n})\n{%!s(int=1234)} {%!d(string=a)} %!s(main.Count=7)\nmain.point {1 2} %!p(float64=1.5) %!p(main.point={1 2})\n",
	},
	{
		name:   "an interface value holds a copy of a named type's value",
		srcs:   []string{"package main\nimport \"fmt\"\ntype Point struct{ X int }\ntype Named struct{ N string }\nfunc (n Named) String() string { return n.N }\nfunc main() {\n\tp := Point{1}\n\tvar x any = p\n\tp.X = 2\n\tn := Named{\"a\"}\n\tvar y any = n\n\tn.N = \"b\"\n\txs := []any{p}\n\tp.X = 3\n\tfmt.Println(x, y, xs)\n}"},
		stdout: "{1} a [{2}]\n",
	},
	{
		name:   "keys of a map with interface keys compare as Go compares them",
		srcs:   []string{"package main\nimport \"fmt\"\ntype N struct{ A int }\nfunc (n N) String() string { return fmt.Sprint(\"N\", n.A) }\ntype P struct{ A int }\ntype Q struct{ A int }\nfunc main() {\n\tm := map[any]int{N{1}: 1}\n\tm[N{1}]++\n\tvar k any = N{1}\n\tm[k]++\n\tm[P{1}] = 5\n\tm[Q{1}] = 6\n\tv, ok := m[any(P{1})]\n\tdelete(m, k)\n\tfmt.Println(len(m), v, ok, m[N{1}], m[P{1}], m[Q{1}])\n}"},
		stdout: "2 5 true 0 5 6\n",
	},
	{
		name:   "errors.As and errors.Is with errors of interpreted types",
		srcs:   []string{"package main\nimport (\"errors\"; \"fmt\")\ntype Errno int\nfunc (e Errno) Error() string { return fmt.Sprint(\"errno \", int(e)) }\ntype NotFound struct{ Name string }\nfunc (e *NotFound) Error() string { return e.Name + \" not found\" }\nfunc main() {\n\tw := fmt.Errorf(\"ctx: %w\", Errno(2))\n\tvar e Errno\n\tvar nf *NotFound\n\tfmt.Println(errors.As(w, &e), e, errors.As(w, &nf), errors.Is(w, Errno(2)), errors.Is(w, Errno(3)))\n\tw = fmt.Errorf(\"ctx: %w\", &NotFound{\"k\"})\n\tfmt.Println(errors.As(w, &nf), nf.Name, errors.As(w, &e))\n}"},
		stdout: "true errno 2 false true false\ntrue k false\n",
	},
	{
		name:   "errors.Is and errors.As of a nil error are false",
		srcs:   []string{"package main\nimport (\"errors\"; \"fmt\"; \"io\")\ntype Errno int\nfunc (e Errno) Error() string { return \"errno\" }\nfunc main() {\n\tvar err error\n\tvar e Errno\n\tfmt.Println(errors.Is(err, io.EOF), errors.Is(err, Errno(1)), errors.As(err, &e), errors.Is(Errno(1), nil))\n}"},
		stdout: "false false false false\n",
	},
	{
		name:    "reflect.TypeOf of a value of an interpreted named type is refused",
		srcs:    []string{"package main\nimport (\"fmt\"; \"reflect\")\ntype Celsius float64\nfunc main() {\n\tfmt.Println(reflect.TypeOf(1.5).Name(), reflect.ValueOf(struct{ X int }{1}).Field(0))\n\tvar x any = Celsius(1)\n\tfmt.Println(reflect.TypeOf(x).Name())\n}"},
		stdout:  "float64 1\n",
		stderr:  "5:2: panic: main.main(...)\n",
		evalErr: "reflect.TypeOf of a main.Celsius is not supported",
	},
	{
		name:   "a type parameter is inferred as the named type of an argument",
		srcs:   []string{"package main\nimport \"fmt\"\ntype Errno int\nfunc set[E any](p *E, v E) E { *p = v; return v }\nfunc first[S ~[]E, E any](s S) E { return s[0] }\ntype Celsius float64\ntype Temps []Celsius\nfunc main() {\n\tvar e Errno\n\tfmt.Printf(\"%T %T\\n\", set(&e, 3), first(Temps{1.5}))\n}"},
		stdout: "main.Errno main.Celsius\n",
	},
	{
		name:    "json.Marshal of a value hiding a MarshalJSON method, held in an interface, is refused",
		srcs:    []string{"package main\nimport (\"encoding/json\"; \"fmt\")\ntype Cost struct{ C int }\nfunc (c Cost) MarshalJSON() ([]byte, error) { return []byte(\"1\"), nil }\ntype Invoice struct{ Price Cost }\nfunc main() {\n\tvar x any = Invoice{Cost{2}}\n\t_, err := json.Marshal(x)\n\tfmt.Println(err)\n}"},
		stderr:  "7:22: panic: main.main(...)\n",
		evalErr: "json.Marshal of a main.Invoice is not supported: Cost's MarshalJSON method is invisible to compiled code inside a struct",
	},
	{
		name:   "a constant expression is computed untyped, then converted",
		srcs:   []string{"package main\nimport \"fmt\"\ntype ByteSize float64\nconst (\n\t_ = iota\n\tKB ByteSize = 1 << (10 * iota)\n\tMB\n\tGB\n\tTB\n\tPB\n\tEB\n\tZB\n\tYB\n)\nfunc main() {\n\tvar x float32 = 1 / 3\n\tvar y float64 = 7 / 2 * 2\n\tvar b byte = 1.0 + 3i - 3.0i\n\tconst k = 5\n\tvar z float64 = k / 2\n\tfmt.Println(x, y, b, z, KB, MB, YB)\n}"},
		stdout: "0 6 1 2 1024 1.048576e+06 1.2089258196146292e+24\n",
	},
	{
		name:   "a type switch with an empty default clause",
		srcs:   []string{"package main\nimport \"fmt\"\nfunc main() {\n\tvar i interface{} = 2.5\n\tswitch v := i.(type) {\n\tcase int:\n\t\tfmt.Println(\"int\", v)\n\tdefault:\n\t\t// nothing\n\t}\n\tfmt.Println(\"done\")\n}"},
		stdout: "done\n",
	},
	{
		name:    "a type defined in terms of itself through a pointer is refused",
		srcs:    []string{"package main\ntype Number *Number\nfunc main() {\n\tvar n Number\n\tprintln(n == nil)\n}"},
		evalErr: "a type defined in terms of itself other than through a struct (type Number *Number) is not supported",
	},
	{
		name:   "compiled containers keep values of interpreted types with their type",
		srcs:   []string{"package main\nimport (\"container/heap\"; \"container/list\"; \"fmt\"; \"sync\")\ntype Celsius float64\ntype H []Celsius\nfunc (h H) Len() int { return len(h) }\nfunc (h H) Less(i, j int) bool { return h[i] < h[j] }\nfunc (h H) Swap(i, j int) { h[i], h[j] = h[j], h[i] }\nfunc (h *H) Push(x any) { *h = append(*h, x.(Celsius)) }\nfunc (h *H) Pop() any { old := *h; n := len(old); x := old[n-1]; *h = old[:n-1]; return x }\nfunc main() {\n\tl := list.New()\n\tl.PushBack(Celsius(1))\n\tvar x any = Celsius(2)\n\tl.PushFront(x)\n\tfor e := l.Front(); e != nil; e = e.Next() {\n\t\t_, ok := e.Value.(Celsius)\n\t\tfmt.Printf(\"%T %v \", e.Value, ok)\n\t}\n\tvar m sync.Map\n\tm.Store(\"k\", Celsius(4))\n\tv, _ := m.Load(\"k\")\n\th := &H{5, 2}\n\theap.Init(h)\n\theap.Push(h, Celsius(1))\n\tfmt.Printf(\"%T %v\\n\", v, heap.Pop(h))\n}"},
		stdout: "main.Celsius true main.Celsius true main.Celsius 1\n",
	},
	{
		name:   "a failed comma-ok assertion sets the zero value",
		srcs:   []string{"package main\nimport \"fmt\"\nfunc main() {\n\tfor _, x := range []any{1, \"a\", 2.5} {\n\t\tn, ok := x.(int)\n\t\ts, ok2 := x.(fmt.Stringer)\n\t\tfmt.Println(n, ok, s, ok2)\n\t}\n}"},
		stdout: "1 true <nil> false\n0 false <nil> false\n0 false <nil> false\n",
	},
}

func TestGoaccelChanges(t *testing.T) {
	for _, c := range goaccelCases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			opts := c.opts
			opts.Stdout, opts.Stderr = &stdout, &stderr
			i := interp.New(opts)
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if c.uses != nil {
				if err := i.Use(c.uses); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			for _, src := range c.srcs {
				if _, err = i.Eval(src); err != nil {
					break
				}
			}
			if err == nil && c.deferred {
				derr := i.RunDeferred()
				switch {
				case c.deferredErr == "" && derr != nil:
					t.Fatalf("RunDeferred: %v", derr)
				case c.deferredErr != "" && (derr == nil || !strings.Contains(derr.Error(), c.deferredErr)):
					t.Fatalf("RunDeferred error %v, want one containing %q", derr, c.deferredErr)
				}
			}
			switch {
			case c.evalErr == "" && err != nil:
				t.Fatalf("eval: %v", err)
			case c.evalErr != "" && (err == nil || !strings.Contains(err.Error(), c.evalErr)):
				t.Fatalf("eval error %v, want one containing %q", err, c.evalErr)
			}
			if stdout.String() != c.stdout {
				t.Errorf("stdout %q, want %q", stdout.String(), c.stdout)
			}
			if stderr.String() != c.stderr {
				t.Errorf("stderr %q, want %q", stderr.String(), c.stderr)
			}
		})
	}
}

// A value no name reaches is garbage: a top-level variable defined again
// takes the old one's slot, and the intermediate values of top-level
// statements are dropped once they ran.
func TestGoaccelRedefinedTopLevelValuesAreFreed(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`func mk() []byte { return make([]byte, 1<<20) }`); err != nil {
		t.Fatal(err)
	}
	heap := func() float64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / (1 << 20)
	}
	for _, cell := range []string{`x := mk()`, `x = mk()`, `y := make([]byte, 1<<20)`} {
		before := heap()
		for k := 0; k < 200; k++ {
			if _, err := i.Eval(cell); err != nil {
				t.Fatal(err)
			}
		}
		if grew := heap() - before; grew > 50 {
			t.Errorf("200 evaluations of %q: the heap grew by %.0f MiB, want at most 50", cell, grew)
		}
	}
}

// Compiled code that walks an interface wrapper by reflection gets past the
// box its IValue holds (change 36).
func TestGoaccelWrapperBoxOpensToCompiledCode(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval("import \"fmt\"\ntype T struct{ N int }\nfunc (T) String() string { return \"t\" }\nvar s fmt.Stringer = T{3}"); err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval("s")
	if err != nil {
		t.Fatal(err)
	}
	w := v
	for w.Kind() == reflect.Interface || w.Kind() == reflect.Pointer {
		w = w.Elem()
	}
	if w.Kind() != reflect.Struct || w.Type().Field(0).Name != "IValue" {
		t.Fatalf("s is a %v, not a wrapper", w.Type())
	}
	box, ok := w.Field(0).Interface().(interface{ InterpretedValue() any })
	if !ok {
		t.Fatalf("the wrapper's IValue holds a %T without InterpretedValue", w.Field(0).Interface())
	}
	held := reflect.ValueOf(box.InterpretedValue())
	if held.Kind() != reflect.Struct || held.Field(0).Int() != 3 {
		t.Fatalf("the box holds %v, want T{3}", held)
	}
}

// notebookEval compiles and runs a cell as goaccel's session does (changes
// 55 and 56): it lets go of the files of earlier cells no code of is left,
// compiles its imports and its statements as two units under a file name of
// its own (the statements as the body of a function), says each Program is
// done once run, then closes the file.
func notebookEval(t *testing.T, i *interp.Interpreter, name, imports, stmts string) {
	t.Helper()
	i.ReleaseFiles()
	for _, unit := range []struct{ src, kind string }{{"package main\n" + imports, "import"}, {"package main; func main() {\n" + stmts + "\n}", "stmts"}} {
		f, err := parser.ParseFile(i.FileSet(), name, unit.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		var root ast.Node = f
		if unit.kind == "stmts" {
			root = f.Decls[0].(*ast.FuncDecl).Body
		}
		prog, err := i.CompileAST(root)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if unit.kind == "stmts" {
			if _, err := i.Execute(prog); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		prog.Done()
	}
	i.CloseFile(name)
}

// settle collects, waits for the cleanups that count compiled code, and
// releases the closed files none of whose code is left.
func settle(i *interp.Interpreter) (released []string) {
	s := []metrics.Sample{{Name: "/gc/cleanups/queued:cleanups"}, {Name: "/gc/cleanups/executed:cleanups"}}
	for k := 0; k < 2; k++ {
		runtime.GC()
		deadline := time.Now().Add(5 * time.Second)
		for metrics.Read(s); s[1].Value.Uint64() < s[0].Value.Uint64() && time.Now().Before(deadline); metrics.Read(s) {
			time.Sleep(time.Millisecond)
		}
		released = append(released, i.ReleaseFiles()...)
	}
	return released
}

// The code of an evaluation is garbage once nothing refers to it (changes
// 55 and 56): re-running a cell 2,000 times, each run under a file name of
// its own, keeps neither the runs' nodes nor their imports, their positions
// or their slots of the global frame.
func TestGoaccelFinishedEvaluationsAreFreed(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	heap := func() float64 {
		settle(i)
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / (1 << 10)
	}
	run := 0
	cell := func() {
		run++
		notebookEval(t, i, fmt.Sprintf("cell%d.go", run), `import ("fmt"; "strings")`,
			`s := strings.Repeat("x", 10); for k := 0; k < 2; k++ { s += fmt.Sprint(k) }; n := len(s); _ = n`)
	}
	for k := 0; k < 200; k++ {
		cell()
	}
	before := heap()
	for k := 0; k < 2000; k++ {
		cell()
	}
	grew := heap() - before
	files := 0
	i.FileSet().Iterate(func(*token.File) bool { files++; return true })
	if grew > 1024 {
		t.Errorf("2,000 runs of a cell kept %.0f KiB (%.0f bytes a run), want at most 1 MiB", grew, grew*1024/2000)
	}
	if files > 20 {
		t.Errorf("the file set holds %d files after 2,200 runs, want those of the last few runs only", files)
	}
}

// A closed file whose code is still reachable keeps its imports: a generic
// function declared in it is instantiated later with them (change 55).
func TestGoaccelReachableCodeKeepsItsFile(t *testing.T) {
	var stdout bytes.Buffer
	i := interp.New(interp.Options{Stdout: &stdout})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	decl, err := parser.ParseFile(i.FileSet(), "cell1.go", "package main\nimport \"fmt\"\nfunc Show[T any](v T) string { return fmt.Sprint(\"<\", v, \">\") }", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := i.CompileAST(decl); err != nil {
		t.Fatal(err)
	}
	i.CloseFile("cell1.go")
	notebookEval(t, i, "cell2.go", `import "fmt"`, `fmt.Println("cell 2")`)
	if released := settle(i); len(released) != 1 || released[0] != "cell2.go" {
		t.Fatalf("released %q, want cell2.go only (cell1.go declares Show)", released)
	}
	notebookEval(t, i, "cell3.go", `import "fmt"`, `fmt.Println(Show(3.5), Show("a"))`)
	if got, want := stdout.String(), "cell 2\n<3.5> <a>\n"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}

// The global frame stays as large as the slots in use (change 56): after
// 2,000 evaluations of a statement with intermediate values, a function
// literal made at the top level copies a small frame, not one slot for
// every intermediate value ever computed (nor the frame's spare room).
func TestGoaccelTopLevelClosuresCopyASmallFrame(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`import "strings"`, `acc := 0`} {
		if _, err := i.Eval(src); err != nil {
			t.Fatal(err)
		}
	}
	perClosure := func() float64 {
		settle(i)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := i.Eval(`for k := 0; k < 1000; k++ { f := func() int { return acc + k }; acc = f() }`); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / 1000
	}
	for k := 0; k < 2000; k++ {
		if _, err := i.Eval(`s := strings.Repeat("x", 3) + strings.ToUpper("y"); acc += len(s) * 2`); err != nil {
			t.Fatal(err)
		}
	}
	if b := perClosure(); b > 4096 {
		t.Errorf("a closure made at the top level after 2,000 evaluations allocates %.0f bytes, want at most 4 KiB", b)
	}
}

// A function literal made at the top level captures what it reads (change
// 57): a cell re-run 200 times that defines a 1 MiB value and a closure
// keeps one of each, not every value the closures' copies of the frame held;
// closures still see what they read as it was when they were made.
func TestGoaccelTopLevelClosuresCaptureWhatTheyRead(t *testing.T) {
	var stdout bytes.Buffer
	i := interp.New(interp.Options{Stdout: &stdout})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	heap := func() float64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / (1 << 20)
	}
	before := heap()
	for k := 0; k < 200; k++ {
		if _, err := i.Eval(`x := make([]byte, 1<<20); f := func() int { return len(x) }`); err != nil {
			t.Fatal(err)
		}
	}
	if grew := heap() - before; grew > 20 {
		t.Errorf("200 runs of a cell defining 1 MiB and a closure: the heap grew by %.0f MiB, want at most 20", grew)
	}
	for _, src := range []string{
		`import "fmt"`,
		`var fs []func() string`,
		`for k := 0; k < 3; k++ { j := k * 10; fs = append(fs, func() string { return fmt.Sprint(j, len(x)) }) }`,
		`n := 5; g := func() func() int { return func() int { return n + f() } }()`,
		`for _, h := range fs { fmt.Print(h(), " ") }; fmt.Println(g())`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatal(src, err)
		}
	}
	if got, want := stdout.String(), "0 1048576 10 1048576 20 1048576 1048581\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// Interpreter.Sprint shows an evaluation's result as fmt.Sprint does in the
// interpreted code, boxes included (change 52).
func TestGoaccelSprintShowsBoxedValues(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"type Celsius float64\nfunc (c Celsius) String() string { return \"C\" }\ntype point struct{ X int }", "var x any = Celsius(2)", "var n interface{ String() string }"} {
		if _, err := i.Eval(src); err != nil {
			t.Fatal(err)
		}
	}
	for src, want := range map[string]string{
		"x":                           "C",
		"[]any{point{1}, Celsius(3)}": "[{1} C]",
		"map[any]int{point{1}: 2}":    "map[{1}:2]",
		"n":                           "<nil>",
	} {
		v, err := i.Eval(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := i.Sprint(v); got != want {
			t.Errorf("Sprint of %s = %q, want %q", src, got, want)
		}
	}
}
