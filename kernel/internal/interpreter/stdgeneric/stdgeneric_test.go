package stdgeneric

import (
	"fmt"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

func newInterp(t testing.TB) *interp.Interpreter {
	t.Helper()
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
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
