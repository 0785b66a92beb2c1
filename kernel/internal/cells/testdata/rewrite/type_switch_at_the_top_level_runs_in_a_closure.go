// Session:
//	var v any = 2.5

// yaegi v0.16 crashes on a top-level type switch; inside a function it runs.
switch x := v.(type) {
case float64:
	fmt.Println("float", x)
default:
	fmt.Println("other")
}

// Rewritten:
// -- import, line 1 --
// import ("fmt")
// -- stmt, line 2 --
// func() { __goaccel_line = 2; switch x := v.(type) {
// case float64:
// 	__goaccel_line = 4; fmt.Println("float", x)
// default:
// 	__goaccel_line = 6; fmt.Println("other")
// } }()
// Output:
// float 2.5
