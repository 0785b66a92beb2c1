// Session:
//	xs := []int{3, 1, 2}

// yaegi v0.16 gives a variable declared with a generic call its zero value
// (or, at the top level without a type, no variable at all): the
// declaration becomes a define, or a declaration and an assignment, at the
// top level and in functions.
func Id[T any](x T) T { return x }
func largest() int {
	var n int = slices.Max(xs)
	return n
}
var top int = Id(7)
var sorted = slices.Sorted(slices.Values(xs))
var (
	name      = Id("s")
	a, b int = Id(1), 2
)
fmt.Println(largest(), top, sorted, name, a, b)

// Rewritten:
// -- import, line 1 --
// import ("fmt"; "slices")
// -- decl, line 5 --
// func Id[T any](x T) T { return x }
// func largest() int {
// 	var n int; n = slices.Max(xs)
// 	return n
// }
// -- stmt, line 10 --
// __goaccel_line = 10; var top int; top = Id(7)
// __goaccel_line = 11; sorted := slices.Sorted(slices.Values(xs))
// __goaccel_line = 12; name := Id("s"); var a, b int; a, b = Id(1), 2
// -- expr, line 16 --
// fmt.Println(largest(), top, sorted, name, a, b)
// Output:
// 3 7 [1 2 3] s 1 2
