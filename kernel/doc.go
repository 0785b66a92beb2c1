// Package kernel is the Jupyter side of goaccel: it binds the five channels
// of a connection file over ZeroMQ, verifies and dispatches messages
// (messaging spec 5.3), and runs cells through an executor child process
// (package kernel/executor).
//
//	info, err := kernel.ReadConnectionFile(path)
//	k := kernel.New(kernel.Config{Conn: info, ExecutorCommand: []string{self, "__executor"}})
//	err = k.Run(ctx) // until shutdown_request or ctx ends
//
// Channels are served independently: control (interrupt, shutdown) and
// kernel_info never wait behind a running cell.
package kernel
