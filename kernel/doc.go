// Package kernel is the Jupyter side of goaccel: it binds the five channels
// of a connection file over ZeroMQ, verifies and dispatches messages
// (messaging spec 5.3), and runs cells through an executor child process
// (package kernel/executor).
//
//	info, err := kernel.ReadConnectionFile(path)
//	k := kernel.New(kernel.Config{Conn: info, ExecutorCommand: []string{self, process.ExecutorCommand}})
//	err = k.Run(ctx) // until shutdown_request or ctx ends
//
// Channels are served independently: control (interrupt, shutdown) and
// kernel_info never wait behind a running cell. Nor do comm messages (Jupyter
// widgets): comm_open, comm_msg and comm_close reach the session's comms at
// once, even while a cell runs, and comm_info lists them; only the work they
// defer (widget callbacks, which run cell code) waits: a message that comes
// while a cell (or callbacks) runs is idle at once, and its callbacks run at
// that request's end, after its reply and before its idle, with it as the
// parent of what they print (an ipywidgets front end sends a widget's next
// update only after the previous one's idle, and shows a callback's output
// only while its parent is not idle); one that comes while nothing runs has
// its callbacks run at once, before its own idle, as their parent. The
// session's comm messages go out on iopub with the parent of what caused
// them.
//
// Whoever can reach the ports cannot take the kernel down without the key:
// a client message over Config.MaxMessageSize closes its connection before
// anything is allocated for it, and a connection that does not finish its
// ZeroMQ handshake within Config.HandshakeTimeout is closed without holding
// up others (third_party/zmq4 carries the socket options this needs). What a
// cell sends to the front end is capped by Config.MaxOutput, with a note
// where output was cut.
//
// The processes the kernel starts from the goaccel binary (the executor,
// the interpreted workers of a launch, derived executors) have their mains
// in package kernel/process.
//
// Files:
//   - channels.go: one bound ZeroMQ socket with its codec (sending, serving
//     verified messages), the sockets' options and the heartbeat echo.
//   - comm.go: comm_open, comm_msg and comm_close from the front end (handed
//     to the executor at once), the callbacks they defer, comm_info, and
//     publishing the session's comm messages.
//   - connection.go: ConnectionInfo and ReadConnectionFile, the connection
//     file Jupyter passes, and each channel's Endpoint.
//   - dispatch.go: where each message type is handled: the shell reader, the
//     shell worker that runs execute, is_complete, complete and inspect one
//     at a time, the control and stdin readers, and aborting queued
//     executes after a failed cell (stop_on_error).
//   - execute.go: execute_request: running a cell on the executor, its
//     reply, and input_request for a cell reading stdin.
//   - handlers.go: Version, kernel_info, is_complete, complete, inspect,
//     history, interrupt and shutdown.
//   - kernel.go: Config, its defaults, Kernel, New and Run, and publishing
//     on iopub (status, streams, displays).
//   - outputlimit.go: the cap on what one cell sends to the front end
//     (Config.MaxOutput), with notes where output was cut.
//   - parent.go: stopping the kernel when the process that started it
//     (JPY_PARENT_PID) exits.
//   - subscriber.go: holding the first request until a front end has
//     subscribed to iopub.
package kernel
