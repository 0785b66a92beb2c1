// Package repl runs notebook cells in a yaegi interpreter that keeps state
// between cells. It is the cell side of the goaccel kernel: the executor
// process creates one Session and forwards execute, complete, inspect and
// is_complete requests to it.
//
//	s, err := repl.New(repl.Options{Stdout: os.Stdout, Stderr: os.Stderr})
//	if err != nil { ... }
//	r := s.Execute(ctx, "x := 40\nx + 2")
//	fmt.Println(r.Data["text/plain"]) // 42
//
// A cell goes through internal/cells first (split into declarations and
// statements, modern Go rewritten, missing imports added), then each piece
// is compiled into its own file name so that errors and panics name cell
// lines. Magics, !commands and SYMBOL? go through package magics.
//
// Limits of yaegi v0.16 that cells still meet, and how they show:
//   - closures capture a loop's variable, not a per-iteration copy (Go
//     before 1.22): pass it as an argument to keep each value;
//   - a panic inside a goroutine ends the executor process (the kernel
//     restarts it and says so); a call blocked in compiled code keeps
//     running after an interrupt, although the cell returns at once;
//   - generic functions work when called inside functions; keeping a generic
//     call's result at the top level of a cell fails with an error
//     naming the construct; the generic helpers of slices and maps that
//     yaegi leaves out (slices.Max, ...) are "undefined selector";
//   - the methods of a cell's own types are invisible to compiled code
//     taking any (fmt's %v, display.BundleOf): the session calls HTML,
//     Markdown, SVG, PNG and String itself for a cell's result, and a value
//     stored in one of our interface types (display.HTMLer, nn.Module, ...)
//     goes through the generated wrappers.
package repl
