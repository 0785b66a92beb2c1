// Session:
//	type celsius float64
//	a, b := celsius(3), celsius(7.5)

// min and max of non-constant arguments become a function of their type.
warmest := max(a, b)
warmest

// Rewritten:
// -- stmt, line 2 --
// __goaccel_line = 2; warmest := func(a celsius, r ...celsius) celsius { for _, v := range r { if v > a { a = v } }; return a }(a, b)
// -- expr, line 3 --
// warmest
// Output:
// 7.5
