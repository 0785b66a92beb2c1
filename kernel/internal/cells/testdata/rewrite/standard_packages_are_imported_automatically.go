// A package used without an import is imported.
words := strings.Fields("a b")
fmt.Println(len(words), math.Sqrt(4))

// Rewritten:
// -- import, line 1 --
// import ("fmt"; "math"; "strings")
// -- stmt, line 2 --
// __goaccel_line = 2; words := strings.Fields("a b")
// -- expr, line 3 --
// fmt.Println(len(words), math.Sqrt(4))
// Output:
// 2 2
