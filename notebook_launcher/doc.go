// Package notebook_launcher runs a training function on several worker
// processes, the Go form of Accelerate's notebook_launcher.
//
// In a notebook cell, Launch (or the `%accelerate launch` magic) starts
// workers that rebuild the function from the notebook's declarations:
//
//	type Config struct{ LR float64; Epochs int }
//	func train(cfg Config) Metrics { acc := accelerate.New(accelerate.Config{}); … }
//	m, err := notebook_launcher.Launch(train, notebook_launcher.Options{NumProcesses: 2}, Config{LR: 1e-3})
//
// Each worker is a fresh process given the notebook's imports, constants,
// types, functions, methods and package-level vars (the ones train reaches,
// in definition order, later redefinitions winning), never its statements: a
// variable made with := at the top level of a cell is not there, so pass it as
// an argument. The function must be declared with func at the top level of a
// cell. Workers are interpreted, or built with the Go toolchain with
// Options.Compile. Their output and display messages (plots, progress
// handles, the notebook tracker's live plot) appear in the launching cell.
// One launch runs at a time. A launch started in a goroutine
// (`go notebook_launcher.Launch(…)`) outlives its cell, and its failure is
// written to the output of whichever cell runs then; interrupting any cell
// (■) stops it.
//
// In a compiled program, Launch re-executes the program's own binary once per
// worker. Every worker starts the program from the top, reaches the same
// Launch call, runs fn there and exits; the launching process waits and
// reports. Launch must therefore be reached the same way in every process
// (call it from main or from a test, not behind input that only the parent
// sees):
//
//	func main() {
//		res, err := notebook_launcher.Launch(train, notebook_launcher.Options{NumProcesses: 2}, cfg)
//		if err != nil {
//			log.Fatal(err)
//		}
//		fmt.Println(res.(Metrics))
//	}
//
// Either way, the arguments are evaluated once, by the launcher, and reach
// every worker by value: booleans, numbers, strings, structs, slices, maps
// and pointers made of them, and *tensors.Tensor (sent as safetensors), so a
// dataset or initial weights built before the launch reach every worker. A
// channel, a function, an open file or a library value with unexported
// fields (a model: pass nn.StateDict(model) instead) is an error naming the
// argument before any worker starts. Rank 0's result comes back the same way;
// fn may also return an error, which fails the launch with its rank.
//
// Each worker gets the torchrun environment (RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT), the job's secret
// GOACCEL_STORE_TOKEN (and, on one node with Port 0, GOACCEL_STORE_ADDR of the
// rendezvous store the launcher hosts itself) plus Accelerate's settings
// (ACCELERATE_MIXED_PRECISION, ACCELERATE_GRADIENT_ACCUMULATION_STEPS,
// ACCELERATE_USE_CPU, CUDA_VISIBLE_DEVICES), so accelerate.New in fn joins
// the group and applies them. Unless GOMAXPROCS is set, the workers share the
// machine's cores (GOMAXPROCS = cores / workers), as torchrun does with
// OMP_NUM_THREADS. Output of rank r > 0 is prefixed "[rank r] ". The first
// worker to fail stops the others and Launch returns an error naming its
// rank, exit status and last stderr lines (with Options.MaxRestarts the
// group restarts instead, and the workers' Accelerator resumes from the
// last automatic checkpoint). Cancelling the context stops all workers and
// no worker outlives Launch (on Linux a worker also dies with its
// launcher).
//
// A launch stops gracefully in one of two ways, one request to the workers
// in two modes, agreed by every rank at a step boundary (a prepared
// loader's next batch). The first Ctrl-C (SIGINT/SIGTERM), a notebook's ■,
// or Stop from any goroutine saves: every worker finishes its current step,
// saves its state in its automatic checkpoint folder (accelerate's
// ProjectDir/checkpoints) and leaves; Launch then returns a *StoppedError
// naming that folder, and a launch with Options.Resume continues from it,
// mid-epoch included, to the result the uninterrupted run would have had.
// A second interrupt stops the workers at once, and so does the first when
// they cannot stop at a step boundary (they train without a prepared
// loader). A click on StopButton (a widget in a notebook) finishes: the
// training pass ends at the agreed step, evaluation runs, and the launch
// returns what rank 0's function returns (a run with a ProjectDir saves its
// checkpoint first). The request reaches each worker on its control pipe
// (notebook_launcher/workers), as the front end's messages to the widgets a
// worker shows do. A collective that some ranks have not joined for
// Options.StallThreshold (a minute) is reported on stderr with the missing
// ranks' goroutine stacks.
//
// When the program already runs under an external launcher (WORLD_SIZE is
// set, as by goaccel launch or torchrun; or mpirun's OMPI_COMM_WORLD_SIZE;
// or srun with SLURM_NTASKS > 1), Launch runs fn in-process instead.
//
// Run is the engine underneath, for launchers that start another program
// (`goaccel launch`): it gives each worker the same environment and failure
// handling. DecodeArgs reads the arguments an exported notebook program
// (`%accelerate export`) embeds.
//
// The work is shared with the subpackages: notebook_launcher/workers starts,
// relays and restarts the processes (Options is its type), notebook_launcher/job
// is the folder that carries the arguments, the result and each rank's
// report, notebook_launcher/transfer encodes values by value, and
// notebook_launcher/cli is `goaccel launch`, `goaccel config` and `goaccel
// env`. In a notebook cell, Launch hands the call to the kernel's session
// (the Cells of the process's host, package internal/host), which rebuilds
// the function from the notebook's declarations.
//
// Files:
//   - launch.go: Options, EnvWorker, EnvRestart and EnvToken, Launch and
//     LaunchContext (in the launching process, in a worker, under an
//     external launcher or in a notebook cell), Run, StoppedError and
//     DecodeArgs.
//   - stop.go: Stop and StopButton: the graceful stop of the process's
//     launches (saving, or finishing).
package notebook_launcher
