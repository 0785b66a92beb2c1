// Session:
//	err := errors.New("no data")

// A cell is main's body to a user who pasted a program: a return ends the
// cell. The statements from the first one holding a return run in a
// function; what they define is declared before it, for later cells.
if err != nil {
	fmt.Println("stopping:", err)
	return
}
rows := 3
fmt.Println("rows", rows)

// Rewritten:
// -- import, line 1 --
// import ("fmt")
// -- stmt, line 4 --
// var rows int; func() { __goaccel_line = 4; if err != nil {
// 	__goaccel_line = 5; fmt.Println("stopping:", err)
// 	__goaccel_line = 6; return
// }
// __goaccel_line = 8; rows = 3
// __goaccel_line = 9; fmt.Println("rows", rows) }()
// Output:
// stopping: no data
