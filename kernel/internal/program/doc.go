// Package program turns a notebook's declarations into a Go program: the
// worker program that `%accelerate launch` runs (interpreted by yaegi, or
// built with the Go toolchain by `--compile`) and the standalone package
// that `%accelerate export` writes. One generator, three uses.
//
// A Record keeps the notebook's declarations in the order they were
// defined, later redefinitions replacing earlier ones: imports, consts,
// types, funcs, methods and package-level vars, each with the user's original
// text and where it came from (cell and line). Names that a top-level
// statement (x := …) defined are remembered too, so that a function using one
// gets an error saying why, not "undefined".
//
//	r := program.NewRecord()
//	r.Import("fmt", "fmt")
//	r.Define(program.Decl{Kind: "func", Names: []string{"hello"}, Text: `func hello() { fmt.Println("hi") }`,
//		At: program.Origin{Cell: 3, Line: 1, Col: 1}})
//	p, err := r.Program("hello")
//	// p.Source is notebook.go: package main, the imports hello needs, hello;
//	// p.Map.Translate(msg) turns "notebook.go:5:2" into "cell [3], line 1:2".
//
// A program holds only what the launched function reaches: the declarations
// it refers to, directly or through others (with every method of each type it
// includes), and the imports they use. The SourceMap, built while the program
// is written, maps each line of notebook.go back to its cell and line; errors
// of the Go compiler, of yaegi and of panics at run time go through it.
//
// Files:
//   - generate.go: File, Program and Record.Program: the declarations a
//     function reaches, in definition order, written with their source map;
//     StatementVarError for a declaration that uses a statement's variable.
//   - mains.go: LauncherPath, ArgsFile, and the main.go of a compiled worker
//     (WorkerMain) and of an exported program (ExportMain).
//   - record.go: Decl, Record (NewRecord, Import, Define, DefineByStatement,
//     Lookup, Snapshot, Version, …) and Symbol, the session's record of its
//     names.
//   - srcmap.go: Origin and SourceMap, package srcmap's types under this
//     package's names, and Positions.
package program
