// Go's package scope: a func may be declared after the statement that calls it.
for i := 0; i < 2; i++ { fmt.Println(double(i)) }
func double(n int) int { return 2 * n }

// Rewritten:
// -- import, line 1 --
// import ("fmt")
// -- decl, line 3 --
// func double(n int) int { return 2 * n }
// -- stmt, line 2 --
// __goaccel_line = 2; for i := 0; i < 2; i++ { __goaccel_line = 2; fmt.Println(double(i)) }
// Output:
// 0
// 2
