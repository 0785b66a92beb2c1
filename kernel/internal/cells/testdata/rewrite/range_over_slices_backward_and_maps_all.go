// Session:
//	names := []string{"al", "bo"}
//	ages := map[string]int{"al": 25}

// The iterators of slices and maps are function iterators: their loops become calls.
for i, v := range slices.Backward(names) { fmt.Println(i, v) }
for name, age := range maps.All(ages) { fmt.Println(name, age) }

// Rewritten:
// -- import, line 1 --
// import ("fmt"; "maps"; "slices")
// -- stmt, line 2 --
// __goaccel_line = 2; { __goaccel_seq1 := slices.Backward(names); __goaccel_seq1(func(i int, v string) bool { __goaccel_line = 2; fmt.Println(i, v) ; return true }) }
// __goaccel_line = 3; { __goaccel_seq2 := maps.All(ages); __goaccel_seq2(func(name string, age int) bool { __goaccel_line = 3; fmt.Println(name, age) ; return true }) }
// Output:
// 1 bo
// 0 al
// al 25
