// Package workerinfo carries facts about a worker process from the packages
// that learn them (accelerate picks the device, joins the process group and
// counts steps; dist enters collectives; data loads batches) to the
// worker's harness (notebook_launcher/job) and to its launcher
// (notebook_launcher/workers), which shows what every rank is doing.
//
//	workerinfo.SetDevice("cuda:1")       // accelerate, once it chose
//	workerinfo.SetLeave(leaveAtExit)     // accelerate: a barrier, then closing the group
//	rep.Device = workerinfo.Device()     // the harness, in the worker's report
//	err := workerinfo.Leave()            // the harness, before the worker exits
//
// A launcher that gives its workers a status pipe and a control pipe
// (EnvStatusFD, EnvControlFD) gets a Status line from each a few times a
// second once StartReporting ran: its step, samples, phase, the collective
// in progress and for how long, its memory; and it may ask for the
// goroutine stacks or for a stop at the next step boundary
// (StopRequested, which accelerate honours). The counters are
// process-wide atomics, as runtime metrics are: every collective and batch
// updates them, so they cost nanoseconds and need no plumbing through the
// training loop's calls.
//
//	c := workerinfo.EnterCollective("all-reduce(Sum)")
//	defer c.Leave()
//
// Files:
//   - workerinfo.go: SetDevice, Device, SetLeave and Leave.
//   - status.go: Status, the phases, and the counters and setters behind it
//     (SetPhase, SetSteps, AddSamples, EnterCollective, SetStoppable,
//     SetCheckpoint, SetPosition).
//   - report.go: the pipes' environment, StartReporting, Controlled,
//     StopRequested and Stopped, and the stacks and memory a status carries.
package workerinfo
