// Session:
//	limit := 3

// Go's test/ken/label.go as main's body: a goto and its labels run in one
// function with the statements after them; a labeled := and a var become
// assignments of variables declared before it.
total := 0
i := 0
loop:
	total += i
	i++
	if i < limit {
		goto loop
	}
done:
	msg := fmt.Sprint("total ", total)
	var parts, empty = []string{msg}, ""
	var count int
	count += len(parts)
	fmt.Println(msg, count, empty == "")

// Rewritten:
// -- import, line 1 --
// import ("fmt")
// -- stmt, line 4 --
// __goaccel_line = 4; total := 0
// __goaccel_line = 5; i := 0
// var msg string; var parts []string; var empty string; var count int; func() { __goaccel_line = 6; loop:
// 	total += i
// 	__goaccel_line = 8; i++
// 	__goaccel_line = 9; if i < limit {
// 		__goaccel_line = 10; goto loop
// 	}
// __goaccel_line = 12; done:
// 	msg = fmt.Sprint("total ", total)
// 	__goaccel_line = 14; parts, empty = []string{msg}, ""
// 	__goaccel_line = 15; count = *new(int)
// 	__goaccel_line = 16; count += len(parts)
// 	__goaccel_line = 17; fmt.Println(msg, count, empty == "") }()
// Output:
// total 3 1 true
