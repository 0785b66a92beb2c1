// Package cells turns one notebook cell of Go into the pieces yaegi can
// evaluate: imports, then declarations and statements in the cell's order,
// except that a func, type or const declaration moves up to before the first
// statement that uses it (Go's package-level scope). Modern Go that yaegi
// v0.16 cannot run (range over an int, range over a function, the min, max
// and clear builtins, Go 1.22's per-iteration loop variables where a closure
// or a pointer captures them, Go 1.26's new(expr), //go:embed) is
// rewritten into forms it can, and
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
//
// Files:
//   - check.go: TypeError, and checking a cell's pieces with go/types
//     against the session (package celltypes).
//   - complete.go: IsComplete, is_complete from go/parser and the brackets
//     left open.
//   - decls.go: Decl, the package-level declarations of a cell as written
//     (what a worker program is built from), and ReceiverBase.
//   - edits.go: rewritten text that remembers its origins, and the edits of
//     one piece applied inside out, turned into a source map.
//   - embed.go: //go:embed lines: a string or []byte variable gets the
//     file's contents (__goaccel.Embed), an embed.FS is refused.
//   - env.go: Env, what the session knows from earlier cells (nil: an empty
//     session).
//   - launch.go: passing the launched function's name along with it in
//     notebook_launcher.Launch calls.
//   - loopvar.go: a copy per iteration of loop variables that closures or
//     pointers capture (Go 1.22's semantics).
//   - order.go: the dependencies between units, and the order that runs a
//     declaration before its first use.
//   - parse.go: Kind, Unit, Call, Program, SyntaxError, UnsupportedError,
//     and Parse, ParseMarked and ParseProgram.
//   - rename.go: new interpreter names for types a cell redefines, and the
//     edits that use them.
//   - retype.go: SplitError, the cells that run as two evaluations (a
//     variable given another type after a use, a pulled iterator called in
//     its cell), and the retyping that cannot split, refused.
//   - rewrite.go: the rewrites of range over an int or a function and of
//     min, max, clear and new(expr).
//   - scope.go: what Parse knows while it walks a cell: declared names,
//     automatic imports, merging units, unresolved names, closures around
//     compound statements, var declarations with a generic call, generic
//     type aliases refused, and LineVar for panic lines.
//   - split.go: cutting a cell into its top-level statements and
//     declarations.
//   - tail.go: a top-level return or goto: the cell from there on in a
//     function, its variables declared before it.
//   - typeof.go: types of expressions from go/types, and writing a type as
//     source for the cell.
package cells
