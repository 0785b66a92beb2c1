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
//
// Whoever can reach the ports cannot take the kernel down without the key:
// a client message over Config.MaxMessageSize closes its connection before
// anything is allocated for it, and a connection that does not finish its
// ZeroMQ handshake within Config.HandshakeTimeout is closed without holding
// up others (third_party/zmq4 carries the socket options this needs). What a
// cell sends to the front end is capped by Config.MaxOutput, with a note
// where output was cut.
package kernel
