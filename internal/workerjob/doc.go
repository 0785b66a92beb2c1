// Package workerjob is the folder through which a launcher and its workers
// exchange what is not output: the launched function's arguments going in,
// rank 0's result coming back, and each worker's report (its device; a panic
// with its message and stack frames, or an error the function returned).
// Display messages travel the other way as frames on the worker's stdout
// (internal/procgroup), so they stay in order with printed text.
//
// Launcher side:
//
//	job, err := workerjob.Create(workerjob.Spec{Func: "train", Result: true}, args, names)
//	defer job.Remove()
//	// start workers with job.Env() in their environment, wait …
//	res, err := job.Result(resultType)
//	rep, ok := job.Report(1)
//
// Worker side (notebook_launcher.Launch in a worker, or goaccel __worker):
//
//	job, err := workerjob.Open(os.Getenv(workerjob.EnvDir))
//	os.Exit(job.Serve(reflect.ValueOf(train), nil))
//
// Files: job.json (the Spec), args.bin and result.bin (internal/transfer
// messages), rank-N.json (Reports).
package workerjob
