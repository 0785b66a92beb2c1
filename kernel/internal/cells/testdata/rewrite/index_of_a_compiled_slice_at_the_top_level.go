// Session:
//	parts := strings.Fields("ab cd")

// An element of a compiled function's slice, defined at the top level (needs no rewrite; yaegi is patched).
small := parts[1]
first := strings.Fields("x y")[0]
small + first

// Rewritten:
// -- stmt, line 2 --
// __goaccel_line = 2; small := parts[1]
// __goaccel_line = 3; first := strings.Fields("x y")[0]
// -- expr, line 4 --
// small + first
// Output:
// cdx
