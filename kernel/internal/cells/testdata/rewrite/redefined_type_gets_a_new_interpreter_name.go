// Session:
//	type point struct{ x int }

// yaegi keeps a type's first definition: a redefinition is a new type under a hidden name.
type point struct{ x, y int }
func (p point) sum() int { return p.x + p.y }
p := point{1, 2}
p.sum()

// Rewritten:
// -- decl, line 2 --
// type point__goaccel2 struct{ x, y int }
// func (p point__goaccel2) sum() int { return p.x + p.y }
// -- stmt, line 4 --
// __goaccel_line = 4; p := point__goaccel2{1, 2}
// -- expr, line 5 --
// p.sum()
// Output:
// 3
