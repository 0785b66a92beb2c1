// Package srcmap is goaccel's one source map: from positions in Go code that
// goaccel generated (a rewritten cell compiled by the interpreter, a worker
// program's notebook.go, a --compile build) back to the notebook cell, line
// and column the user wrote. It is built while the code is written, piece by
// piece, never by searching text afterwards.
//
// A Builder writes generated code from three kinds of pieces: text copied
// from a cell (each byte maps to its own position), text standing for a place
// in a cell (a rewrite's added code, which maps to where the rewritten
// construct starts) and text of goaccel's own (a package clause, an import
// block), which maps nowhere. Mapped text written by one Builder can be
// appended to another with its mapping, so a cell's rewrite and the file the
// interpreter compiles compose into one Map.
//
//	var b srcmap.Builder
//	b.Generated("package main\n")
//	b.Copy("x := f()\n", srcmap.Origin{Cell: 3, Line: 2, Col: 1})
//	m := b.Map("cell3.go")
//	o, _ := m.Lookup(2, 6)            // cell [3], line 2, column 6
//	m.Translate("cell3.go:2:6: undefined: f") // "cell [3], line 2:6: undefined: f"
//
// Files:
//   - builder.go: Builder: Generated, Copy, Insert and Append write code
//     with its origins; Map returns the result.
//   - srcmap.go: Origin and Map: Lookup and LookupOffset of a generated
//     position, Translate and First for compiler, yaegi and panic messages,
//     and Positions.
package srcmap
