// Package session runs notebook cells in a yaegi interpreter that keeps state
// between cells. It is the cell side of the goaccel kernel: the executor
// process (kernel/process.RunExecutor) creates one Session and serves it to
// the kernel through package kernel/executor, which forwards execute,
// complete, inspect and is_complete requests to it; Result is that
// package's Result. The session is also what the process's host
// (internal/host) offers library code: its Display carries cells' displays
// (to Options.Display, or a %%capture), and it is the host's Cells, which
// launches workers for notebook_launcher.Launch in a cell and stops them.
//
//	s, err := session.New(session.Options{Stdout: os.Stdout, Stderr: os.Stderr})
//	if err != nil { ... }
//	r := s.Execute(ctx, "x := 40\nx + 2")
//	fmt.Println(r.Data["text/plain"]) // 42
//
// A cell goes through kernel/internal/cells first (split into declarations and
// statements, modern Go rewritten, missing imports added), then each piece
// is compiled into its own file name so that errors and panics name cell
// lines. Magics, !commands and SYMBOL? go through package magics; the
// session times (%timeit), resets (%reset) and captures (%%capture) for them.
//
// A cell importing a package no symbol table has (a module from GOPROXY, a
// local module of %go mod use) makes the session build a derived executor
// with it (kernel/internal/derive) and answer with a Result whose Switch names
// it: the kernel's supervisor starts it, has it Restore the session and
// runs the cell again there. The session keeps its declarations, and the
// names and types of its variables, in Options.StateFile after every cell
// that changes them; on a switch, also the values that can cross a process
// (notebook_launcher/transfer). Restore replays the declarations, declares the
// variables, sets the carried ones and names the rest, which is also what
// an executor restarted after a crash does.
//
// The session serves the comms of package widgets (Options.Comms: the
// process's comm.Manager) to the kernel (executor.CommHost): the front end's
// messages reach the widgets at once, even while a cell runs, and the
// callbacks they defer, which are cell code, run between cells in
// RunDeferred, each through an evaluated call (so an interrupt stops it as it
// stops a cell), a panic reported with its cell line in the callback's
// output. StopLaunches is the one stop of the launches in progress: the
// first interrupt of a cell (Interrupt, executor.Stopper) and
// notebook_launcher.Stop save and leave, the Stop button finishes and
// returns the result.
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
//     kernel/internal/interpreter/stdgeneric compiles what yaegi lacks; sorting and Min/Max of
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
//
// Files:
//   - callbacks.go: the session's comms (DeliverComm, CommInfo, SetParent)
//     and RunDeferred, running widget callbacks in the interpreter.
//   - complete.go: Complete, completion of package members, fields and
//     methods (through go/types where it knows the type) and session names.
//   - complete_stub.go: IsComplete, is_complete for a cell that line magics
//     may split.
//   - derive.go: moving the session to a derived executor for a cell that
//     imports packages no symbol table has (switchFor), and %go get, %go mod
//     use and %go list (GoGet, GoModUse, GoList).
//   - env.go: the session as cells.Parse sees it (cells.Env).
//   - eval.go: runCell: parsing, rewriting, compiling and running a cell
//     unit by unit, each in its own file with its source map; loading the
//     generic standard packages on first import; compile errors and panics
//     turned into the cell's error; forgetting the runs none of whose code
//     is reachable any more (forgetUnused), so that a cell re-run keeps one
//     run's worth of code, imports, source and source maps.
//   - goroutines.go: the interpreter's go statement: a panic in a goroutine
//     a cell started is reported on stderr and ends only that goroutine.
//   - launch.go: the declaration record that launches and exports build
//     programs from, the cell launcher behind notebook_launcher.Launch
//     (LaunchCell, the host's Cells), %accelerate launch and export, and the
//     launches in progress, which StopLaunches (the host's too) and an
//     interrupt (Interrupt: the first gracefully, executor.Stopper) stop.
//   - magicenv.go: the session as package magics sees it (magics.Env), and
//     Who.
//   - memory.go: what the end of a cell gives back: the tensors' memory
//     the cell dropped, collected when it is sizeable
//     (backend.CollectDropped), and, once the session has stayed idle for
//     2 s, the pools' free buffers and the collector's heap to the
//     operating system (backend.Idle).
//   - overrides.go: the symbols the session sets beyond
//     kernel/internal/interpreter's tables: its os.Stdin, os.Stdout and
//     os.Stderr and the runtime helpers rewritten cells and magics call.
//   - packages.go: the index of every package cells can import, by name and
//     by path, for automatic imports and completion.
//   - pager.go: Doc and Inspect, documentation pages from go/doc (source
//     found at run time) or from the symbol tables.
//   - positions.go: mapping the interpreter's positions in compiled files
//     back to cell lines and columns, with go/types' explanation of a
//     compile error.
//   - result.go: a cell's final expression: its value, results of calls
//     with several, and its MIME bundle (show).
//   - rich.go: calling the HTML, Markdown, SVG, PNG and String methods a
//     cell's own types declare, which compiled code cannot see.
//   - session.go: Options, Result, Error, Session, New, Display, Execute
//     (cells split by line magics run part by part), SetStdin,
//     SetExecutionCount, UserExpressions and Magics.
//   - sessionmagics.go: what the session implements for the magics:
//     %timeit's timer, %reset, asking for input, %%capture (of output and
//     of displays: the session's display switch), and %go.
//   - state.go: the state file an executor's successor restores from, the
//     values a switch carries, and Restore.
//   - stderr.go: the filter that takes yaegi's panic frame lines out of
//     stderr for the cell's traceback.
//   - stdin.go: the interpreter's os.Stdin, swapped per execution.
//   - symtab.go: what the session knows of its names (kind, go/types type,
//     declaration line) from its record.
package session
