// Package celltypes is go/types for notebook cells: the types of what a
// cell's code refers to, so that rewrites (range over an int or a function,
// min and max, loop variables), completion and the session's record of its
// variables work on types rather than on type names in strings.
//
// An Importer builds go/types packages from the interpreter's symbol tables
// (the reflect values of every exported name of every package cells can
// import), and the generic standard packages (cmp, iter, maps, slices) from
// their API, which the symbol tables cannot hold. A Scope is the session as
// go/types sees it: one package holding every name the notebook declared,
// against which each cell is checked, cell by cell.
//
//	imp := celltypes.NewImporter(interpreter.Tables()...)
//	sc := celltypes.NewScope(imp)
//	info, err := sc.Check(fset, files)        // a cell's files (see package cells)
//	t := info.TypeOf(expr)                    // e.g. []*data.Subset
//
//go:generate go run ./gen
package celltypes
