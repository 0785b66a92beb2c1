// Package launch runs a notebook's function on worker processes: the
// kernel side of notebook_launcher.Launch and `%accelerate launch` in a cell,
// and the interpreted worker (`goaccel __worker`).
//
// How the pieces fit:
//
//   - kernel/internal/program writes the worker program from the session's
//     declaration record (notebook.go: the declarations the function
//     reaches) with a SourceMap back to cells and lines.
//   - notebook_launcher/job makes the job folder: the arguments (notebook_launcher/transfer,
//     by value), the spec, and later rank 0's result and each rank's report.
//   - The program is checked before any worker starts: compiled into a
//     scratch interpreter (kernel/internal/interpreter) or, with Compile, built with
//     the Go toolchain into a binary cached by content (a second launch of
//     unchanged code runs with no build). Errors come back at cell lines.
//   - notebook_launcher/workers starts the workers with the torchrun environment and a
//     rendezvous store this process hosts: `goaccel __worker` (which loads
//     notebook.go into a fresh interpreter) or the cached binary (whose main
//     is notebook_launcher.Launch in worker mode). Both end in
//     job.Serve.
//   - Output streams into the cell (rank r > 0 prefixed "[rank r] "), and
//     display messages arrive as frames on the workers' stdout, re-sent
//     through the executor's display in order with the text. So do the
//     comm messages of the widgets a worker shows (widgets.go): they go out
//     through the session's comms, the front end's messages to them go to
//     that worker's control pipe (Request.Control's Send), and a mirror of
//     each widget's state answers the front end once the workers have
//     ended.
//   - The Request's Control is how the session stops the launch
//     (Session.StopLaunches): the first interrupt, or notebook_launcher.Stop,
//     asks the workers to save and stop at a step boundary the ranks agree
//     on (the error is a *workers.StoppedError naming the checkpoint), the
//     next kills them; the Stop button asks them to finish: the training
//     pass ends at the agreed step and the launch returns what rank 0
//     returns.
//   - A failure stops every worker; the error names the rank, its message
//     and the cell and line (frames mapped through the SourceMap). In an
//     interpreted worker a panic in a goroutine is reported the same way,
//     with the go statement that started it (goroutines.go). With
//     MaxRestarts the group restarts instead, each restart and its cause
//     written into the cell. A cancelled context stops every worker within
//     a second (SIGINT, then SIGKILL).
//   - The launching cell shows a table of the ranks (status.go), updated in
//     place while they run: step, samples/s, what each does and at which
//     cell line, memory. A collective some ranks have not joined for the
//     stall threshold is reported in the cell, each missing rank with its
//     cell line and goroutine stacks.
//   - An interpreted worker gives the garbage collector a headroom of
//     64 MiB (kernel/internal/launch/gcheadroom): the interpreter's program is pointers in
//     the heap that every collection scans, and a small model's training
//     loop would otherwise collect every few steps.
//
// Only one launch runs at a time in a process; a second is refused.
//
//	out, err := launch.Run(ctx, launch.Request{Name: "train", Fn: fn, Config: cfg, Record: record, Cell: 3, Stdout: os.Stdout, Stderr: os.Stderr})
//	// out.Value is rank 0's result; err a *CompileError, a *WorkerError, …
//
// Export writes the same program as a standalone package, with its
// arguments, for `%accelerate export`.
//
// Files:
//   - build.go: the compiled worker of a launch with Compile: `go build`
//     against goaccel (kernel/internal/gobuild), cached by content.
//   - errors.go: Place, CompileError (a program that does not compile, at
//     cell lines) and WorkerError (the failing rank, its panic or error, at
//     cell lines).
//   - export.go: ExportRequest and Export, the program `%accelerate export`
//     writes (main.go, notebook.go, go.mod, go.sum, args.bin, README.md).
//   - goroutines.go: the go statement of an interpreted worker: a panic in a
//     goroutine ends the worker and is reported like the function's.
//   - status.go: the status table (one display, updated in place) and the
//     Places that map workers' lines and stacks to cells.
//   - run.go: WorkerCommand, Request, Outcome and Run: check the program,
//     make the job, start the workers (notebook_launcher/workers), relay
//     output with positions mapped to cells, and collect the result.
//   - widgets.go: the relay of a launch's widgets between the notebook and
//     the workers, with each widget's mirror.
//   - worker.go: WorkerMain, the interpreted worker: notebook.go loaded into
//     a fresh interpreter with a GC headroom, the function served through
//     package job, panics put at their lines.
package launch
