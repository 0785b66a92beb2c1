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
// pids, of the status table and of stall reports, and a Control.
//
// Each worker gets two pipes (internal/workerinfo): a status pipe (fd 3,
// workerinfo.EnvStatusFD), on which it reports a few times a second what it
// is doing — its step, samples, phase, the collective in progress and for
// how long, its memory — and a control pipe (fd 4,
// workerinfo.EnvControlFD), which carries every message of the launcher to
// the worker, one workerinfo.ControlMessage a line: a stop request with its
// mode, a request for the goroutine stacks, and a notebook front end's comm
// messages to the worker's widgets (Control.Send). The launcher never
// blocks on a worker that does not read: what overflows is dropped. From
// the statuses the launcher keeps GroupStatus (Config.Status gets it when
// it changes) and reports a collective that waited longer than
// Options.StallThreshold (a minute), naming the ranks that have not joined
// it, each with its stacks and, in a notebook, its cell line (Stall,
// Places).
//
// A stop is one request in one of two modes (Control.Stop). StopSave is an
// interrupt (Control.Interrupt): the first asks every worker to finish its
// step, save its state and leave (Run then returns a *StoppedError), the
// next stops them at once; InterruptOnSignals wires SIGINT and SIGTERM to
// it. StopFinish (a notebook's Stop button) asks every worker to end its
// training pass and return, and the launch ends as after a normal end; it
// never kills. StopAll stops every launch of the process. After a failure
// Run restarts the whole group (MaxRestarts), saying why, and the
// restarted workers resume from the last checkpoint (workerinfo.EnvResume).
//
//	cfg := workers.Config{Options: workers.Options{NumProcesses: 2, MixedPrecision: "bf16"}}
//	if err := cfg.Normalize(); err != nil { … }
//	err := workers.Run(ctx, "/path/to/worker", nil, cfg)
//
// Underneath, RunGroup starts a group of local processes, relays their
// output, and stops the whole group on the first failure or on
// cancellation: each worker runs in its own process group (so a terminal's
// Ctrl-C reaches only the launcher, which forwards it), dies with the
// launcher (on Linux by Pdeathsig; everywhere it leaves when its control
// pipe closes, which internal/workerinfo watches), and has its output prefixed with
// "[rank r] " for r > 0. A line a worker starts with FramePrefix
// (WriteFrame) is for the launcher, not the user: a notebook worker's
// display message.
//
//	err := workers.RunGroup(ctx, workers.GroupSpec{
//		Path: "/path/to/bin", NumProcs: 2,
//		Env: func(local int) []string { return []string{fmt.Sprintf("RANK=%d", local)} },
//	})
//
// A process that runs notebook cells routes notebook_launcher.Launch,
// Stop and StopButton to its session through its host (internal/host's
// Cells; package kernel/internal/launch runs those launches).
//
// Files:
//   - control.go: Control, StopMode and Interruption (Interrupt and Stop:
//     a graceful stop, then a kill; Send), StoppedError and ErrStopped,
//     StopAll and InterruptOnSignals.
//   - fsdp.go: FSDPOptions, the FSDP launch settings and the environment they
//     give the workers.
//   - gpus.go: VisibleGPUs, from /proc/driver/nvidia and
//     CUDA_VISIBLE_DEVICES.
//   - group.go: GroupSpec, RunGroup, ExitError and ErrInterrupted: starting,
//     waiting for and stopping a group of local processes, with their status
//     and control pipes; the failure reported is the first that is not a
//     rank telling of a lost peer.
//   - launch.go: EnvRestart, EnvToken, Options, Config (Normalize), Run
//     with the torchrun environment, the rendezvous store, restarts that
//     resume, and Token.
//   - monitor.go: RankStatus, GroupStatus and Stall, and the monitor that
//     reads the status pipes, keeps the table, finds stalls and writes the
//     control pipes.
//   - pipe.go: the launcher's end of a control pipe, a queue that never
//     blocks the sender.
//   - relay.go: FramePrefix and WriteFrame, relaying output line by line
//     with rank prefixes, and the stderr tail an ExitError quotes.
//   - report.go: Places, the stall report's text (Stall.Text) with the
//     stacks trimmed to the user's frames, GroupStatus.Text, StopNote
//     and Ended, and Bytes.
//   - signal_unix.go, signal_windows.go: signals to a worker's process group, or a kill on
//     Windows, where RunGroup refuses to start workers (no inherited pipes).
//   - sys_linux.go: the workers' process group and Pdeathsig.
//   - sys_unix.go: the workers' process group on the other Unix systems.
package workers
