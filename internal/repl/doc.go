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
// lines. Magics, !commands and SYMBOL? go through package magics; the
// session times (%timeit), resets (%reset) and captures (%%capture) for them.
//
// A cell importing a package no symbol table has (a module from GOPROXY, a
// local module of %go mod use) makes the session build a derived executor
// with it (internal/derived) and answer with a Result whose Switch names
// it: the kernel's supervisor starts it, has it Restore the session and
// runs the cell again there. The session keeps its declarations, and the
// names and types of its variables, in Options.StateFile after every cell
// that changes them; on a switch, also the values that can cross a process
// (internal/transfer). Restore replays the declarations, declares the
// variables, sets the carried ones and names the rest, which is also what
// an executor restarted after a crash does.
//
// goaccel carries a patched yaegi v0.16 (third_party/yaegi, README.goaccel.md
// there): generic calls at a cell's top level, type inference by parameter
// name and through core types, and a hook for go statements. With it:
//   - a panic in a goroutine a cell started ends only that goroutine: it is
//     reported on stderr (in the running cell, naming the cell that started
//     it when that is another) and every variable, function and type stays;
//   - generic functions and types declared in cells work at the top level
//     (ys := Map(xs, f), st := &Stack[int]{});
//   - slices, maps, cmp and iter have their whole Go 1.26 API (package
//     internal/stdgeneric compiles what yaegi lacks; sorting and Min/Max of
//     ordered elements run compiled), and range over their iterators works;
//   - closures capture one loop variable per iteration, as in Go 1.22
//     (package cells rewrites the loops whose variables closures capture).
//
// Limits of yaegi that cells still meet, and how they show:
//   - a panic in a goroutine that compiled code started, running a cell's
//     function (time.AfterFunc(d, f)), still ends the executor process (the
//     kernel restarts it and says so); a call blocked in compiled code keeps
//     running after an interrupt, although the cell returns at once;
//   - generic code beyond the inference yaegi does (a type argument only a
//     result or an untyped constant would fix) fails with an error naming
//     the generic function: give its type arguments (F[int](x));
//   - iter.Pull and Pull2 run the sequence on a goroutine, not a coroutine;
//   - the methods of a cell's own types are invisible to compiled code
//     taking any (fmt's %v, display.BundleOf): the session calls HTML,
//     Markdown, SVG, PNG and String itself for a cell's result, and a value
//     stored in one of our interface types (display.HTMLer, nn.Module, ...)
//     goes through the generated wrappers.
package repl
