// Package repl runs notebook cells in a yaegi interpreter that keeps state
// between cells. It is the cell side of the goaccel kernel: the executor
// process creates one Session and forwards execute, complete, inspect and
// is_complete requests to it.
//
//	s, err := repl.New(repl.Options{Stdout: os.Stdout, Stderr: os.Stderr})
//	if err != nil { ... }
//	r := s.Execute(ctx, "x := 40\nx + 2")
//	fmt.Println(r.Data["text/plain"]) // 42
package repl
