// Package celltypes is go/types for notebook cells: the types of what a
// cell's code refers to, so that rewrites (range over an int or a function,
// min and max, loop variables), completion and the session's record of its
// variables work on types rather than on type names in strings.
//
// An Importer builds go/types packages from the interpreter's symbol tables
// (the reflect values of every exported name of every package cells can
// import), and the generic standard packages (cmp, iter, maps, slices) from
// their API (stdgeneric.API, of package
// kernel/internal/interpreter/stdgeneric), which the symbol tables cannot
// hold. A Scope is the session as go/types sees it: one package holding
// every name the notebook declared, against which each cell is checked,
// cell by cell (go/types keeps every file it checked, so the Scope rebuilds
// the package from the declarations every 64 checks, and drops the earlier
// cells' files from its file set); a Namer writes types back as source a
// cell can hold.
//
//	imp := celltypes.NewImporter(interpreter.Tables()...)
//	sc := celltypes.NewScope(imp, nil)               // nil: nothing to rebuild from
//	c := sc.Check(files, []string{"subsets"}, false) // a cell's files, parsed into sc.FileSet()
//	t := c.Info.TypeOf(expr)                         // e.g. []*data.Subset
//
// Files:
//   - importer.go: Importer (NewImporter, Has, Import): go/types packages
//     from symbol tables, and from stdgeneric.API for the generic ones.
//   - print.go: Namer (NewNamer, Source, Added): types written as Go source
//     in the session package, adding imports they need.
//   - reflecttypes.go: reflect types converted to go/types types, named
//     types with their methods.
//   - scope.go: Decl, Session, Scope (NewScope, Check, Discard, Reset,
//     Lookup, Package) and Checked, the session package cell by cell, and
//     AddImports.
package celltypes
