// Package interpreter is yaegi as goaccel configures it, for the notebook
// session (internal/repl) and for interpreted workers alike: the symbol
// tables (the standard library, goaccel's packages, os/exec, the helpers
// rewritten cells call) with the real process environment, and the loader
// that runs a worker program (internal/program) in a fresh interpreter.
//
//	i, err := interpreter.New(interp.Options{Stdout: os.Stdout})
//	p, err := interpreter.Load(i, src) // notebook.go of a worker program
//	err = p.Run(ctx)                   // its package-level vars
//	train, err := p.Func("train")
package interpreter
