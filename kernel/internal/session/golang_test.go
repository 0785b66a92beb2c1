package session

import (
	"context"
	"strings"
	"testing"
)

// What Go 1.22 to 1.26 added, as a user tries it in a fresh session: each
// cell prints what go run prints, or is refused with an error naming the
// construct (never another output).
func TestGoOneTwentyTwoToOneTwentySixInACell(t *testing.T) {
	tests := []struct {
		name, cell, want, refused string
	}{
		{"range over an integer", "for i := range 3 { defer fmt.Println(\"d\", i) }", "d 2\nd 1\nd 0\n", ""},
		{"range over a function of the library", "for w := range strings.SplitSeq(\"a,b\", \",\") { fmt.Println(w) }", "a\nb\n", ""},
		{"strings.Lines", "for l := range strings.Lines(\"a\\nb\\n\") { fmt.Print(l) }", "a\nb\n", ""},
		{"slices.Chunk", "for c := range slices.Chunk([]int{1, 2, 3}, 2) { fmt.Println(c) }", "[1 2]\n[3]\n", ""},
		{"iter.Pull, called in the same cell", "next, stop := iter.Pull(slices.Values([]int{1, 2}))\ndefer stop()\nv, ok := next()\nfmt.Println(v, ok)", "1 true\n", ""},
		{"iter.Pull in a function", "func f() { next, stop := iter.Pull(slices.Values([]int{1, 2})); defer stop(); v, ok := next(); fmt.Println(v, ok) }\nf()", "1 true\n", ""},
		{"unique.Make", "h := unique.Make(\"x\")\nfmt.Println(h.Value())", "x\n", ""},
		{"sync.WaitGroup.Go capturing the iteration's variable", "var wg sync.WaitGroup\nn := 0\nvar mu sync.Mutex\nfor i := range 4 { wg.Go(func() { mu.Lock(); n += i; mu.Unlock() }) }\nwg.Wait()\nfmt.Println(n)", "6\n", ""},
		{"errors.AsType", "type myErr struct{ s string }\nfunc (e *myErr) Error() string { return e.s }\nerr := fmt.Errorf(\"w: %w\", &myErr{\"x\"})\nif e, ok := errors.AsType[*myErr](err); ok { fmt.Println(\"as\", e.s) }", "as x\n", ""},
		{"os.OpenRoot", "r, err := os.OpenRoot(\".\")\nfmt.Println(err == nil, r != nil)", "true true\n", ""},
		{"new of an expression", "p := new(42)\nq := new(\"s\" + \"t\")\nfmt.Println(*p, *q)", "42 st\n", ""},
		{"new of an expression in a var", "var p = new(7)\nfmt.Println(*p)", "7\n", ""},
		{"field names under %+v, %T and %#v", "type pt struct{ x, y int }\nfmt.Printf(\"%+v %T %#v\\n\", pt{1, 2}, pt{}, pt{3, 4})", "{x:1 y:2} main.pt main.pt{x:3, y:4}\n", ""},
		{"a generic type referring to itself in its parameters", "type Ord[T Ord[T]] interface{ Less(T) bool }\nfmt.Println(\"ok\")", "ok\n", ""},
		{"func main runs once at the end of its cell", "fmt.Println(\"first\")\nfunc main() { fmt.Println(\"main\") }", "first\nmain\n", ""},
		{"comma-ok define of a variable the cell defined", "x := 1\nx, ok := 2, true\nfmt.Println(x, ok)", "2 true\n", ""},
		{"var with a generic call", "var n int = slices.Max([]int{3, 1})\nvar xs = slices.Sorted(slices.Values([]int{3, 1}))\nfmt.Println(n, xs)", "3 [1 3]\n", ""},
		{"var with a generic call in a function", "func f() int { var n = slices.Max([]int{3, 1}); return n }\nfmt.Println(f())", "3\n", ""},
		{"several values assigned, one a call", "func f(x int) int { return x }\nvar b, c int\nb, c = f(1), 2\nfmt.Println(b, c)", "1 2\n", ""},
		{"print writes to stderr", "print(\"to stderr\\n\")", "to stderr\n", ""},
		{"a generic type alias", "type Set[T comparable] = map[T]struct{}\ns := Set[string]{\"a\": {}}\nfmt.Println(len(s))", "", "a generic type alias (Set[…] = …)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, out := newSession(t)
			r := s.Execute(context.Background(), tt.cell)
			switch {
			case tt.refused != "":
				if r.Error == nil || r.Error.Ename != "UnsupportedError" || !strings.Contains(r.Error.Evalue, tt.refused) {
					t.Fatalf("error %v, want an UnsupportedError naming %q", r.Error, tt.refused)
				}
			case r.Error != nil:
				t.Fatalf("error %v", r.Error)
			}
			if got := out.String(); got != tt.want {
				t.Errorf("output %q, want %q", got, tt.want)
			}
		})
	}
}
