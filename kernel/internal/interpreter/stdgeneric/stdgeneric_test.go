package stdgeneric

import (
	"fmt"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/std"
	"github.com/traefik/yaegi/interp"
)

func newInterp(t testing.TB) *interp.Interpreter {
	t.Helper()
	i := interp.New(interp.Options{})
	if err := i.Use(std.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := Load(i); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import ("cmp"; "fmt"; "iter"; "maps"; "math"; "slices"; "strings")`); err != nil {
		t.Fatal(err)
	}
	return i
}

// Every function of the Go 1.26 API of slices, maps, cmp and iter, called
// from interpreted code; the expected values are what compiled Go prints.
var calls = []struct{ name, code, want string }{
	{"cmp.Compare", `cmp.Compare(1, 2)`, "-1"},
	{"cmp.Less", `cmp.Less("b", "a")`, "false"},
	{"cmp.Or", `cmp.Or("", "x", "y")`, "x"},
	{"slices.All", `func() string { var b strings.Builder; slices.All([]string{"a", "b"})(func(i int, v string) bool { fmt.Fprint(&b, i, v); return true }); return b.String() }()`, "0a1b"},
	{"slices.AppendSeq", `slices.AppendSeq([]int{1}, slices.Values([]int{2, 3}))`, "[1 2 3]"},
	{"slices.Backward", `slices.Collect(func(yield func(int) bool) { slices.Backward([]int{1, 2, 3})(func(_ int, v int) bool { return yield(v) }) })`, "[3 2 1]"},
	{"slices.BinarySearch", `fmt.Sprint(slices.BinarySearch([]int{1, 3, 5}, 3))`, "1 true"},
	{"slices.BinarySearch missing", `fmt.Sprint(slices.BinarySearch([]string{"a", "c"}, "b"))`, "1 false"},
	{"slices.BinarySearchFunc", `fmt.Sprint(slices.BinarySearchFunc([]int{10, 20, 30}, 2, func(e, t int) int { return cmp.Compare(e/10, t) }))`, "1 true"},
	{"slices.Chunk", `slices.Collect(slices.Chunk([]int{1, 2, 3, 4, 5}, 2))`, "[[1 2] [3 4] [5]]"},
	{"slices.Clip", `cap(slices.Clip(make([]int, 2, 10)))`, "2"},
	{"slices.Clone", `slices.Clone([]int{1, 2})`, "[1 2]"},
	{"slices.Collect", `slices.Collect(maps.Keys(map[int]bool{7: true}))`, "[7]"},
	{"slices.Compact", `slices.Compact([]int{1, 1, 2, 2, 1})`, "[1 2 1]"},
	{"slices.CompactFunc", `slices.CompactFunc([]string{"a", "A", "b"}, strings.EqualFold)`, "[a b]"},
	{"slices.Compare", `slices.Compare([]int{1, 2}, []int{1, 3})`, "-1"},
	{"slices.CompareFunc", `slices.CompareFunc([]int{1}, []string{"1"}, func(a int, b string) int { return cmp.Compare(fmt.Sprint(a), b) })`, "0"},
	{"slices.Concat", `slices.Concat([]int{1}, []int{2, 3})`, "[1 2 3]"},
	{"slices.Contains", `slices.Contains([]string{"a", "b"}, "b")`, "true"},
	{"slices.ContainsFunc", `slices.ContainsFunc([]int{1, 2}, func(v int) bool { return v > 1 })`, "true"},
	{"slices.Delete", `slices.Delete([]int{0, 1, 2, 3}, 1, 3)`, "[0 3]"},
	{"slices.DeleteFunc", `slices.DeleteFunc([]int{1, 2, 3, 4}, func(v int) bool { return v%2 == 0 })`, "[1 3]"},
	{"slices.Equal", `slices.Equal([]int{1}, []int{1})`, "true"},
	{"slices.EqualFunc", `slices.EqualFunc([]int{1}, []string{"1"}, func(a int, b string) bool { return fmt.Sprint(a) == b })`, "true"},
	{"slices.Grow", `cap(slices.Grow([]int{1}, 10)) >= 11`, "true"},
	{"slices.Index", `slices.Index([]string{"a", "b"}, "b")`, "1"},
	{"slices.IndexFunc", `slices.IndexFunc([]int{1, 2, 3}, func(v int) bool { return v > 1 })`, "1"},
	{"slices.Insert", `slices.Insert([]int{1, 4}, 1, 2, 3)`, "[1 2 3 4]"},
	{"slices.IsSorted", `slices.IsSorted([]int{1, 2, 2})`, "true"},
	{"slices.IsSortedFunc", `slices.IsSortedFunc([]int{3, 2}, func(a, b int) int { return b - a })`, "true"},
	{"slices.Max", `slices.Max([]int{3, 9, 2})`, "9"},
	{"slices.Max strings", `slices.Max([]string{"b", "c", "a"})`, "c"},
	{"slices.Max NaN", `math.IsNaN(slices.Max([]float64{1, math.NaN(), 3}))`, "true"},
	{"slices.Max uint16", `slices.Max([]uint16{3, 9, 2})`, "9"},
	{"slices.MaxFunc", `slices.MaxFunc([]string{"aa", "b"}, func(a, b string) int { return len(a) - len(b) })`, "aa"},
	{"slices.Min", `slices.Min([]float64{3, -1.5, 2})`, "-1.5"},
	{"slices.MinFunc", `slices.MinFunc([]string{"aa", "b"}, func(a, b string) int { return len(a) - len(b) })`, "b"},
	{"slices.Repeat", `slices.Repeat([]int{1, 2}, 2)`, "[1 2 1 2]"},
	{"slices.Replace", `slices.Replace([]int{1, 2, 3}, 1, 2, 7, 8)`, "[1 7 8 3]"},
	{"slices.Reverse", `func() []int { s := []int{1, 2, 3}; slices.Reverse(s); return s }()`, "[3 2 1]"},
	{"slices.Sort", `func() []float64 { s := []float64{3, math.NaN(), 1, 2}; slices.Sort(s); return s }()`, "[NaN 1 2 3]"},
	{"slices.Sort int8", `func() []int8 { s := []int8{3, -1, 2}; slices.Sort(s); return s }()`, "[-1 2 3]"},
	{"slices.SortFunc", `func() []string { s := []string{"ccc", "a", "bb"}; slices.SortFunc(s, func(a, b string) int { return len(a) - len(b) }); return s }()`, "[a bb ccc]"},
	{"slices.SortStableFunc", `func() []string { s := []string{"b1", "a1", "b0", "a0"}; slices.SortStableFunc(s, func(a, b string) int { return cmp.Compare(a[0], b[0]) }); return s }()`, "[a1 a0 b1 b0]"},
	{"slices.Sorted", `slices.Sorted(slices.Values([]int{3, 1, 2}))`, "[1 2 3]"},
	{"slices.SortedFunc", `slices.SortedFunc(slices.Values([]int{1, 3, 2}), func(a, b int) int { return b - a })`, "[3 2 1]"},
	{"slices.SortedStableFunc", `slices.SortedStableFunc(slices.Values([]string{"b", "a"}), strings.Compare)`, "[a b]"},
	{"slices.Values", `slices.Collect(slices.Values([]string{"x", "y"}))`, "[x y]"},
	{"maps.All", `maps.Collect(maps.All(map[string]int{"a": 1}))`, "map[a:1]"},
	{"maps.Clone", `func() string { m := map[int]int{1: 1}; c := maps.Clone(m); c[2] = 2; return fmt.Sprint(len(m), len(c)) }()`, "1 2"},
	{"maps.Collect", `maps.Collect(slices.All([]string{"a", "b"}))`, "map[0:a 1:b]"},
	{"maps.Copy", `func() map[int]int { m := map[int]int{1: 1}; maps.Copy(m, map[int]int{2: 2}); return m }()`, "map[1:1 2:2]"},
	{"maps.DeleteFunc", `func() map[int]int { m := map[int]int{1: 1, 2: 2}; maps.DeleteFunc(m, func(k, v int) bool { return k == 1 }); return m }()`, "map[2:2]"},
	{"maps.Equal", `maps.Equal(map[int]int{1: 1}, map[int]int{1: 1})`, "true"},
	{"maps.EqualFunc", `maps.EqualFunc(map[int]int{1: 1}, map[int]string{1: "1"}, func(a int, b string) bool { return fmt.Sprint(a) == b })`, "true"},
	{"maps.Insert", `func() map[int]string { m := map[int]string{}; maps.Insert(m, slices.All([]string{"a"})); return m }()`, "map[0:a]"},
	{"maps.Keys", `slices.Sorted(maps.Keys(map[string]int{"b": 1, "a": 2}))`, "[a b]"},
	{"maps.Values", `slices.Sorted(maps.Values(map[string]int{"b": 1, "a": 2}))`, "[1 2]"},
	{"iter.Seq", `func() int { var s iter.Seq[int] = slices.Values([]int{4, 5}); t := 0; s(func(v int) bool { t += v; return true }); return t }()`, "9"},
	{"iter.Seq2", `func() int { var s iter.Seq2[int, string] = slices.All([]string{"a", "b"}); n := 0; s(func(i int, v string) bool { n += i; return true }); return n }()`, "1"},
	{"iter.Pull", `func() string { next, stop := iter.Pull(slices.Values([]int{1, 2, 3})); defer stop(); a, _ := next(); b, _ := next(); return fmt.Sprint(a, b) }()`, "1 2"},
	{"iter.Pull end", `func() string { next, stop := iter.Pull(slices.Values([]int{1})); defer stop(); next(); _, ok := next(); return fmt.Sprint(ok) }()`, "false"},
	{"iter.Pull2", `func() string { next, stop := iter.Pull2(maps.All(map[string]int{"k": 7})); defer stop(); k, v, ok := next(); return fmt.Sprint(k, v, ok) }()`, "k7 true"},
}

func TestEveryGenericStandardFunctionRunsInTheInterpreter(t *testing.T) {
	i := newInterp(t)
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			got, err := eval(i, "fmt.Sprint("+c.code+")")
			if err != nil {
				t.Fatalf("%s: %v", c.code, err)
			}
			if got != c.want {
				t.Errorf("%s = %s, want %s", c.code, got, c.want)
			}
		})
	}
}

func eval(i *interp.Interpreter, code string) (s string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("interpreter panic: %v", r)
		}
	}()
	v, err := i.Eval(code)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(fmt.Sprint(v.Interface())), nil
}

// The generic functions and types of the standard packages that also have
// a symbol table, called from interpreted code (a program each, so that a
// type can be declared); the expected output is what compiled Go prints.
var partialPrograms = []struct{ name, src, want string }{
	{"errors", `import ("errors"; "fmt")
type argError struct{ arg int }
func (e *argError) Error() string { return fmt.Sprint("bad ", e.arg) }
func main() {
	err := fmt.Errorf("outer: %w", errors.Join(errors.New("x"), &argError{3}))
	ae, ok := errors.AsType[*argError](err)
	var target *argError
	fmt.Println(ae.arg, ok, errors.As(err, &target), target.arg, errors.Is(err, ae), errors.Unwrap(err) != nil)
	_, ok = errors.AsType[*argError](errors.New("y"))
	fmt.Println(ok, errors.Is(fmt.Errorf("w: %w", errors.ErrUnsupported), errors.ErrUnsupported))
}`, "3 true true 3 true true\nfalse true\n"},
	{"sync", `import ("fmt"; "sync")
func main() {
	n := 0
	v := sync.OnceValue(func() int { n++; return 7 })
	a, b := sync.OnceValues(func() (int, string) { n++; return 1, "x" })()
	fmt.Println(v(), v(), a, b, n)
}`, "7 7 1 x 2\n"},
	{"sync/atomic", `import ("fmt"; "sync/atomic")
type node struct{ v int }
func main() {
	var p atomic.Pointer[node]
	old := &node{1}
	fmt.Println(p.Load() == nil, p.CompareAndSwap(nil, old), p.Load().v, p.Swap(&node{2}) == old, p.Load().v)
}`, "true true 1 true 2\n"},
	{"unique", `import ("fmt"; "unique")
func main() { a, b, c := unique.Make("x"), unique.Make("x"), unique.Make("y"); fmt.Println(a == b, a == c, c.Value()) }`, "true false y\n"},
	{"weak", `import ("fmt"; "runtime"; "weak")
type node struct{ v int }
func main() { n := &node{5}; w := weak.Make(n); fmt.Println(w.Value().v, weak.Make[node](nil).Value() == nil); runtime.KeepAlive(n) }`, "5 true\n"},
	{"reflect", `import ("fmt"; "reflect")
func main() { x, ok := reflect.TypeAssert[int](reflect.ValueOf(3)); fmt.Println(reflect.TypeFor[string](), x, ok) }`, "string 3 true\n"},
	{"math/rand/v2", `import ("fmt"; "math/rand/v2")
func main() { ok := true; for i := 0; i < 100; i++ { ok = ok && rand.N(10) < 10 && rand.N(int64(3)) >= 0 }; fmt.Println(ok) }`, "true\n"},
	{"hash/maphash", `import ("fmt"; "hash/maphash")
func main() { s := maphash.MakeSeed(); fmt.Println(maphash.Comparable(s, 3) == maphash.Comparable(s, 3), maphash.Comparable(s, "a") == maphash.Comparable(s, "b")) }`, "true false\n"},
	{"crypto/hkdf and crypto/pbkdf2", `import ("crypto/hkdf"; "crypto/pbkdf2"; "crypto/sha256"; "fmt")
func main() {
	k, err := hkdf.Key(sha256.New, []byte("secret"), []byte("salt"), "info", 8)
	p, _ := pbkdf2.Key(sha256.New, "pw", []byte("salt"), 10, 8)
	fmt.Printf("%x %v %x\n", k, err, p)
}`, "f6d2fcc47cb939de <nil> 72aecd14244887c3\n"},
	{"database/sql", `import ("database/sql"; "fmt")
func main() {
	var n sql.Null[int64]
	err := n.Scan([]byte("12"))
	v, _ := n.Value()
	var s sql.Null[string]
	fmt.Println(err, n.V, n.Valid, v, s.Scan(nil), s.Valid)
}`, "<nil> 12 true 12 <nil> false\n"},
	{"runtime", `import ("fmt"; "runtime")
type res struct{ b []byte }
func main() { r := &res{make([]byte, 10)}; c := runtime.AddCleanup(r, func(n int) {}, 1); c.Stop(); fmt.Println("ok") }`, "ok\n"},
}

func TestGenericsOfPackagesWithTablesRunInTheInterpreter(t *testing.T) {
	for _, c := range partialPrograms {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
			if err := i.Use(std.Symbols); err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), "", "package main\n"+c.src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if err := LoadPackage(i, p); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := eval(i, "package main\n"+c.src); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if out.String() != c.want {
				t.Errorf("output %q, want %q", out.String(), c.want)
			}
		})
	}
}
