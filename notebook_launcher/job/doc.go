// Package job is the folder through which a launcher and its workers
// exchange what is not output: the launched function's arguments going in,
// rank 0's result coming back, and each worker's report (its device; a panic
// with its message and stack frames, or an error the function returned).
// Display and widget messages travel the other way as frames on the
// worker's stdout (workers.WriteFrame), so they stay in order with printed
// text; the front end's widget messages come in on the worker's control
// pipe (workerinfo.ControlMessage), with the launcher's stop and stacks
// requests.
//
// Launcher side:
//
//	j, err := job.Create(job.Spec{Func: "train", Result: true}, args, names)
//	defer j.Remove()
//	// start workers with j.Env() in their environment, wait …
//	res, err := j.Result(resultType)
//	rep, ok := j.Report(1)
//
// Worker side (notebook_launcher.Launch in a worker, or goaccel __worker):
//
//	j, err := job.FromEnv() // the folder EnvDir names
//	os.Exit(j.Serve(reflect.ValueOf(train), nil))
//
// Folder: job.json (the Spec), args.bin and result.bin
// (notebook_launcher/transfer messages), rank-N.json (Reports).
//
// Files:
//   - comms.go: CommFrame, the control message a launcher sends a worker's
//     widget, and the worker's side: widget messages delivered, their
//     callbacks run on a goroutine.
//   - display.go: a worker's display (host.Display) and comm transport, which write
//     each display or widget message as a frame on stdout, and ParseFrame,
//     which reads one back.
//   - job.go: EnvDir, Spec, Job (Create, Open, FromEnv, Env, Remove, Args,
//     Result, Report), CheckFunc and ResultType, Frame and Report.
//   - serve.go: the worker side: Serve (which installs the worker's host,
//     internal/host: its displays and widgets go to the launcher), Fail and
//     Panicked, ArgLabels and ParamTypes for argument errors, PanicMessage
//     and ExitOnInterrupt.
package job
