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
// Rewrites work on the AST and on types: the cell is checked with go/types
// against the session (package celltypes), and every rewrite is an edit of
// a node's range whose added code remembers the place it stands for, so each
// Unit carries a source map (package srcmap) from its text back to the
// cell's lines and columns. testdata/rewrite holds one golden file per
// construct: the cell, what it becomes, and what it prints.
//
//	prog, err := cells.Parse("x := 3\nfor i := range x { fmt.Println(i) }", env)
//	for _, u := range prog.Units { eval(u.Text) } // u.Map: positions in u.Text → cell lines
package cells
