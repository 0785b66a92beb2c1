// Package workers runs one node's share of a distributed job: N worker
// processes with the torchrun environment (RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT), Accelerate's
// settings (ACCELERATE_MIXED_PRECISION, ACCELERATE_GRADIENT_ACCUMULATION_STEPS,
// ACCELERATE_USE_CPU, CUDA_VISIBLE_DEVICES), a rendezvous store it hosts
// itself on one node, and restarts of the whole group after a failure.
//
// It is the engine under notebook_launcher.Launch and Run, `goaccel launch`
// and `%accelerate launch`. Options are the settings users give (they are
// notebook_launcher.Options); Config adds what a launcher sets itself: extra
// environment, the grace period, a receiver of frames and of the workers'
// pids.
//
//	cfg := workers.Config{Options: workers.Options{NumProcesses: 2, MixedPrecision: "bf16"}}
//	if err := cfg.Normalize(); err != nil { … }
//	err := workers.Run(ctx, "/path/to/worker", nil, cfg)
//
// Underneath, RunGroup starts a group of local processes, relays their
// output, and stops the whole group on the first failure or on
// cancellation: each worker runs in its own process group (so a terminal's
// Ctrl-C reaches only the launcher, which forwards it), dies with the
// launcher on Linux (Pdeathsig), and has its output prefixed with
// "[rank r] " for r > 0. A line a worker starts with FramePrefix
// (WriteFrame) is for the launcher, not the user: a notebook worker's
// display message.
//
//	err := workers.RunGroup(ctx, workers.GroupSpec{
//		Path: "/path/to/bin", NumProcs: 2,
//		Env: func(local int) []string { return []string{fmt.Sprintf("RANK=%d", local)} },
//	})
//
// With GroupSpec.Inboxes each worker also gets an inbox: a pipe (fd 3,
// EnvInbox) on which its launcher sends it frames, one a line, without ever
// blocking on a worker that does not read (Inbox.Send drops instead); the
// worker reads them with ReadInbox. A notebook launch sends the front end's
// widget messages and graceful stop requests that way.
//
// A process that runs notebook cells installs a CellLauncher
// (SetCellLauncher), to which notebook_launcher.Launch in a cell hands its
// call (package kernel/internal/launch is that launcher).
//
// Files:
//   - cell.go: CellRequest, CellLauncher, SetCellLauncher and
//     InstalledCellLauncher: Launch in a notebook cell routed to the kernel;
//     CellStop, SetCellStop and InstalledCellStop: its graceful stop.
//   - gpus.go: VisibleGPUs, from /proc/driver/nvidia and
//     CUDA_VISIBLE_DEVICES.
//   - group.go: GroupSpec, RunGroup, ExitError and ErrInterrupted: starting,
//     waiting for and stopping a group of local processes.
//   - inbox.go: EnvInbox, Inbox (Send) and ReadInbox: frames from a
//     launcher to each of its workers.
//   - launch.go: EnvRestart, EnvToken, Options, Config (Normalize), Run
//     with the torchrun environment, the rendezvous store and restarts, and
//     Token.
//   - relay.go: FramePrefix and WriteFrame, relaying output line by line
//     with rank prefixes, and the stderr tail an ExitError quotes.
//   - sys_linux.go: the workers' process group and Pdeathsig.
//   - sys_other.go: the workers' process group elsewhere.
package workers
