// Generic functions declared in a cell are called at the top level as they are.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
lengths := Map([]string{"ab", "c"}, func(s string) int { return len(s) })
lengths

// Rewritten:
// -- decl, line 2 --
// func Map[T, U any](xs []T, f func(T) U) []U {
// 	out := make([]U, 0, len(xs))
// 	for _, x := range xs {
// 		out = append(out, f(x))
// 	}
// 	return out
// }
// -- stmt, line 9 --
// __goaccel_line = 9; lengths := Map([]string{"ab", "c"}, func(s string) int { return len(s) })
// -- expr, line 10 --
// lengths
// Output:
// [2 1]
