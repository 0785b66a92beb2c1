// Go 1.26's new(expr): a pointer to a new variable holding the value.
type point struct{ x, y int }
p, q, r := new(42), new("text"), new(point{1, 2})
*p += 1
fmt.Println(*p, *q, r.x, *new(len("abc")), *new(int))

// Rewritten:
// -- import, line 1 --
// import ("fmt")
// -- decl, line 2 --
// type point struct{ x, y int }
// -- stmt, line 3 --
// __goaccel_line = 3; p, q, r := func(v int) *int { return &v }(42), func(v string) *string { return &v }("text"), func(v point) *point { return &v }(point{1, 2})
// __goaccel_line = 4; *p += 1
// -- expr, line 5 --
// fmt.Println(*p, *q, r.x, *func(v int) *int { return &v }(len("abc")), *new(int))
// Output:
// 43 text 1 3 0
