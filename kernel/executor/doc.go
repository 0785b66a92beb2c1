// Package executor runs notebook cells in a child process so that a panic, a
// panic in a goroutine, os.Exit, or a call stuck in compiled code never takes
// the kernel down.
//
// The kernel starts the child (its own binary, exec'd with a hidden
// subcommand) through a Supervisor. The child serves one Session: requests
// and events travel as length-prefixed JSON frames, of any size, over two
// inherited pipes (fd 3 and 4, close-on-exec in the child so that processes
// a cell starts do not inherit them); the child's real stdout and stderr are
// pipes the Supervisor reads and hands on in batches (every 50 ms or 8 KiB),
// so compiled code writing to os.Stdout reaches the notebook live. Before an
// event that must follow the output printed so far (a display, a result),
// the child writes a marker into both streams; markers carry a secret the
// Supervisor gave that child, so printed text is never taken for one.
//
// The Supervisor gives every child the same state file (EnvState). A child
// that replaces one (after a crash, or when a cell's Result.Switch asks for
// another executor binary, one with packages this one lacks) is asked to
// restore the session from it first (a Session that is a Restorer), and its
// note, naming what came back and which variables were lost, goes into the
// cell's error or onto stderr. After a switch the cell runs again in the new
// child, and later restarts start that binary.
//
// Comms (Jupyter widgets) cross the same pipes: the kernel hands a front
// end's comm message to the child (DeliverComm), which delivers it to the
// session at once, even while a cell runs, on the goroutine that reads
// requests; what the message's handlers defer (widget callbacks, which run
// cell code) runs later as an interruptible request (RunDeferred), when the
// kernel asks: at the end of the running cell, as part of it, or as the
// message's own request. comm_info is answered at once too. The
// session's comm messages come back as events, in order with output.
//
// Kernel side:
//
//	sup := executor.NewSupervisor(executor.Config{
//		Command: []string{self, "__executor"},
//		Output:  func(stream, text string) { /* publish a stream message */ },
//	})
//	out := sup.Execute(ctx, executor.ExecRequest{Code: `fmt.Println("hi")`})
//
// Child side (the hidden subcommand):
//
//	reqs, events, err := executor.InheritedPipes()
//	c := executor.NewChild(reqs, events, os.Stdout, os.Stderr)
//	err := c.Serve(ctx, session)
//
// process.RunExecutor (package kernel/process) is that hidden subcommand in
// the goaccel binary, with a kernel/internal/session Session; the Child is
// the display of the process's host (internal/host), so that cells'
// displays reach the parent in order with their printed output.
//
// An interrupt cancels the running cell, and a child still busy after
// InterruptGrace is killed; a Session that is a Stopper may instead answer
// it gracefully (a launch whose workers finish their step and save their
// state first: the session's stop of its launches), and the child is then
// left to finish until the next interrupt. This is the one stop path on
// the wire: a widget's stop (a Stop button) arrives as a comm message and
// is served inside the child.
//
// Files:
//   - child.go: Child, the executor side: NewChild and Serve answer the
//     parent's requests one cell at a time, relay interrupts and stdin,
//     deliver comm messages at once and run deferred work, Send carries
//     display messages (it is the host.Display of cells) and SendComm
//     comm messages (the comm.Transport of the session's comms).
//   - exit.go: why a child process ended, in words for the user, and the
//     tail of its stderr kept for that.
//   - frame.go: length-prefixed JSON frames on the two pipes.
//   - outpipe.go: reading the child's stdout and stderr: batching, UTF-8
//     boundaries and the sync markers that order output with events.
//   - pipes.go: InheritedPipes, the child's ends of the request and event
//     pipes (fd 3 and 4).
//   - process.go: one child process: starting it (Supervisor.spawn),
//     calls and their events, killing its process group and reaping it.
//   - procattr_linux.go, procattr_other.go: the child's process group, and
//     Linux's parent-death signal (elsewhere the request pipe's end is the
//     child's cue to leave).
//   - protocol.go: the interfaces a child serves (Session, Restorer,
//     Stopper, Counter, Parenter, CommHost), Result and Error, EnvState, and
//     the requests, events and sync markers on the wire.
//   - supervisor.go: Config, ExecRequest, Outcome and Supervisor: starting,
//     restarting and switching the child, restoring the session, Execute,
//     Interrupt, DeliverComm, CommInfo, RunDeferred, IsComplete, Complete,
//     Inspect and Close.
package executor
