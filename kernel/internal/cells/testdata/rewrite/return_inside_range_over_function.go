// Session:
//	n := 3
//	xs := []float64{2.5, 1}
//	seq := func(yield func(int) bool) { for i := 1; i <= 3; i++ { if !yield(i) { return } } }
//	func pairs(n int) func(func(string, int) bool) { return func(yield func(string, int) bool) { for i := 0; i < n; i++ { if !yield("k", i) { return } } } }
//	m := map[string]int{"a": 1}
//	type counter struct{}
//	func (counter) Count() int { return 2 }
//	pkg := counter{}
//	type config struct{ Steps int64 }
//	cfg := config{Steps: 2}
//	func pair() (int, int) { return 1, 2 }
//	var fs []func() float64
//	var ps []*int

// Return inside range over function.
func first(limit int) (int, bool) {
	for v := range seq {
		if v > limit { return v, true }
	}
	return 0, false
}
first(1)

// Rewritten:
// -- decl, line 2 --
// func first(limit int) (int, bool) {
// 	{ var __goaccel_ret1 bool; var __goaccel_rv2 int; var __goaccel_rv3 bool; __goaccel_seq4 := seq; __goaccel_seq4(func(v int) bool {
// 		if v > limit { __goaccel_rv2, __goaccel_rv3 = v, true; __goaccel_ret1 = true; return false }
// 	return true }); if __goaccel_ret1 { return __goaccel_rv2, __goaccel_rv3 } }
// 	return 0, false
// }
// -- expr, line 8 --
// first(1)
// Output:
// (2, true)
