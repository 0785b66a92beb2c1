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

// Range over a field.
for i := range cfg.Steps { fmt.Println(i) }

// Rewritten:
// -- import, line 1 --
// import ("fmt")
// -- stmt, line 2 --
// __goaccel_line = 2; { __goaccel_n1 := cfg.Steps; for i := __goaccel_n1 - __goaccel_n1; i < __goaccel_n1; i++ { __goaccel_line = 2; fmt.Println(i) } }
// Output:
// 0
// 1
