// Package interpreter is yaegi as goaccel configures it, for the notebook
// session (kernel/internal/session) and for interpreted workers alike: the
// symbol tables (the standard library, goaccel's packages, os/exec, the
// helpers rewritten cells call) with the real process environment, and the
// loader that runs a worker program (kernel/internal/program) in a fresh
// interpreter.
//
//	i, err := interpreter.ForProgram(src, interp.Options{Stdout: os.Stdout}) // src: notebook.go of a worker program
//	p, err := interpreter.Load(i, src, true) // rewritten as cells are, lines marked for panics
//	err = p.Run(ctx)                         // its package-level vars
//	train, err := p.Func("train")
//
// A session's interpreter is New(opts, extra...), with every table; a
// worker's is ForProgram's, with only the packages its program imports, so
// that the garbage collector does not scan tables it never uses. Check
// compiles a worker program without running it, for the errors a launch
// reports before any worker starts.
//
// Files:
//   - goroutine.go: GoroutineID, the calling goroutine's id, which ties
//     yaegi's panic frames on stderr to their goroutine.
//   - load.go: Program, Load, ForProgram and Check: a worker program
//     rewritten as cells are and compiled into an interpreter, Run and Func;
//     PanicLine, and Position, the same line read while the program runs
//     (a worker's status).
//   - panicline.go: where a worker's panic happened: PanicLine's
//     neighbours InFrame and GoStatementAt, from the program's functions
//     and go statements kept after compiling.
//   - symbols.go: Tables and New: the Go 1.26 standard library (package
//     std), yaegi's unsafe, package symbols' tables and goaccel's overrides
//     (the process environment, flag.Parse, the internal/rt helpers).
package interpreter
