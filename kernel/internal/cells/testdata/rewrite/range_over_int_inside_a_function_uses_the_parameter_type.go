// go/types types the parameter: range over it becomes a three-clause loop.
func count(limit uint8) (n int) {
	for i := range limit {
		n += int(i)
	}
	return n
}
count(4)

// Rewritten:
// -- decl, line 2 --
// func count(limit uint8) (n int) {
// 	{ __goaccel_n1 := limit; for i := __goaccel_n1 - __goaccel_n1; i < __goaccel_n1; i++ {
// 		n += int(i)
// 	} }
// 	return n
// }
// -- expr, line 8 --
// count(4)
// Output:
// 6
