// Package cells turns one notebook cell of Go into the pieces yaegi can
// evaluate: imports, then declarations and statements in the cell's order,
// except that a func, type or const declaration moves up to before the first
// statement that uses it (Go's package-level scope). Modern Go that yaegi
// v0.16 cannot run (range over an int, range over a function, the min, max
// and clear builtins, Go 1.22's per-iteration loop variables where a closure
// or a pointer captures them) is rewritten into forms it can, and
// standard-library packages used without an import are added. It also answers is_complete
// from go/parser. It does not evaluate anything.
//
//	prog, err := cells.Parse("x := 3\nfor i := range x { fmt.Println(i) }", env)
//	for _, u := range prog.Units { eval(u.Source()) }
package cells
