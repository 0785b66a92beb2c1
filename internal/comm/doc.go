// Package comm is the kernel side of Jupyter's comm protocol (comm_open,
// comm_msg, comm_close and comm_info): the comms a process has open, the
// targets front ends may open comms to, and the work their messages leave
// for a time when no cell runs. Package widgets speaks the ipywidgets
// protocol over it, reaching the process's Manager through its host
// (package internal/host): the executor's Manager sends to the kernel, a
// launched worker's sends frames to its launcher.
//
//	m := comm.NewManager(transport)
//	c := m.Open("jupyter.widget", data, meta, nil, h) // comm_open to the front end
//	c.Send(map[string]any{"method": "update", "state": s}, nil)
//	deferred, err := m.Deliver(msg)                    // a message from the front end
//
// A message from the front end is delivered at once, even while a cell
// runs, on the goroutine that received it: handlers apply what compiled code
// can (a widget's new value) and Defer what runs cell code (a callback),
// keyed by the message that caused it. The session runs deferred work
// (Take) when the kernel asks, between cells: that message, or the cell at
// whose end it runs, is the parent of what the work prints and sends.
//
// Files:
//   - buffers.go: binary buffers in widget state (the buffer_paths of the
//     widget protocol): SeparateBuffers and PutBuffers.
//   - control.go: the ipywidgets control comm (ServeWidgetControl,
//     StateHolder): every widget's state in one update_states.
//   - manager.go: Message, Transport, Handler, Target, Job, Manager (Open,
//     Register, Deliver, Info, Defer, Take, Parent, AtFinish) and Comm.
package comm
