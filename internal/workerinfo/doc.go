// Package workerinfo carries facts about a worker process from the packages
// that learn them (accelerate picks the device and joins the process group)
// to the worker's harness (notebook_launcher/job), which reports the device to
// its launcher and leaves the group cleanly before the process ends.
//
//	workerinfo.SetDevice("cuda:1")       // accelerate, once it chose
//	workerinfo.SetLeave(leaveAtExit)     // accelerate: a barrier, then closing the group
//	rep.Device = workerinfo.Device()     // the harness, in the worker's report
//	err := workerinfo.Leave()            // the harness, before the worker exits
//	workerinfo.RequestStop()             // the harness: the launcher asked for a graceful stop
//	if workerinfo.StopRequested() { … }  // accelerate, between training steps
//
// Files:
//   - workerinfo.go: SetDevice, Device, SetLeave and Leave; SetStoppable,
//     Stoppable, RequestStop and StopRequested.
package workerinfo
