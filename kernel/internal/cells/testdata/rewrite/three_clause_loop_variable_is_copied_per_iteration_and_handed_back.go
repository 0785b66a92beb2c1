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

// Three-clause loop variable is copied per iteration and handed back.
for i := 0; i < n; i++ {
	if i == 1 { i++; continue }
	fs = append(fs, func() float64 { return float64(i) })
}
fmt.Println(len(fs), fs[0]())

// Rewritten:
// -- import, line 1 --
// import ("fmt")
// -- stmt, line 2 --
// __goaccel_line = 2; for i := 0; i < n; i++ { __goaccel_loopvar1 := &i; i := *__goaccel_loopvar1; 
// 	__goaccel_line = 3; if i == 1 { __goaccel_line = 3; i++; { *__goaccel_loopvar1 = i; __goaccel_line = 3; continue } }
// 	__goaccel_line = 4; fs = append(fs, func() float64 { return float64(i) })
// ; *__goaccel_loopvar1 = i; }
// -- expr, line 6 --
// fmt.Println(len(fs), fs[0]())
// Output:
// 1 0
