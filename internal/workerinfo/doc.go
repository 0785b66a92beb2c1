// Package workerinfo carries facts about a worker process from the packages
// that learn them (accelerate picks the device, joins the process group and
// counts steps; dist enters collectives; data loads batches) to the
// worker's harness (notebook_launcher/job) and to its launcher
// (notebook_launcher/workers), which shows what every rank is doing.
//
// A Worker is the process's link to its launcher. A process has one, made
// by FromEnv and reached through the process's host (package
// internal/host), so every package records into the same one:
//
//	w := host.Current().Worker
//	w.SetDevice("cuda:1")       // accelerate, once it chose
//	w.SetLeave(leaveAtExit)     // accelerate: a barrier, then closing the group
//	rep.Device = w.Device()     // the harness, in the worker's report
//	err := w.Leave()            // the harness, before the worker exits
//
// A launcher gives each worker two pipes: a status pipe (worker →
// launcher, fd EnvStatusFD, 3 under notebook_launcher/workers) and a
// control pipe (launcher → worker, fd EnvControlFD, 4). FromEnv finds
// them; from then on the worker sends a Status line a few times a second:
// its step, samples, phase, the collective in progress and for how long,
// its memory. The launcher sends ControlMessages, one JSON object a line:
// a stop request with its StopMode (RequestedStop, which accelerate agrees
// on with the other ranks at a step boundary), a request for the goroutine
// stacks (answered on the status pipe), and the front end's comm messages
// to the worker's widgets (handed to what HandleComm installed). The
// launcher closes the control pipe only after the worker exited, so a worker
// whose control pipe ends leaves at once: its launcher was killed outright
// (macOS has no parent-death signal to do it). The
// counters are atomics, so every collective and batch updates them in
// nanoseconds.
//
//	c := w.EnterCollective("all-reduce(Sum)")
//	defer c.Leave()
//	if w.RequestedStop() != workerinfo.NoStop { … } // accelerate, at a step boundary
//
// Files:
//   - workerinfo.go: Worker, FromEnv, SetDevice, Device, SetLeave and Leave.
//   - status.go: Status, the phases, and the setters of a Worker's counters
//     (SetPhase, SetSteps, AddSamples, EnterCollective, SetStoppable,
//     SetCheckpoint, SetPosition).
//   - report.go: the pipes' environment, the status pipe's reporter,
//     Controlled and Stopped, and the stacks and memory a status carries.
//   - control.go: the control pipe: StopMode, ControlMessage, RequestStop,
//     RequestedStop, HandleComm and the reader that serves them.
package workerinfo
