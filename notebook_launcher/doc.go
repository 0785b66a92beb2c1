// Package notebook_launcher runs a training function on several worker
// processes, the Go form of Accelerate's notebook_launcher.
//
// In a compiled program, Launch re-executes the program's own binary once per
// worker. Every worker starts the program from the top, reaches the same
// Launch call, runs fn there and exits; the launching process waits and
// reports. Launch must therefore be reached the same way in every process
// (call it from main or from a test, not behind input that only the parent
// sees):
//
//	func main() {
//		err := notebook_launcher.Launch(train, notebook_launcher.Options{NumProcesses: 2})
//		if err != nil {
//			log.Fatal(err)
//		}
//	}
//
// Each worker gets the torchrun environment (RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT), the job's secret
// GOACCEL_STORE_TOKEN (and, on one node with Port 0, GOACCEL_STORE_ADDR of the
// rendezvous store the launcher hosts itself) plus ACCELERATE_MIXED_PRECISION, so accelerate.New in fn joins the group and
// applies the precision. Unless GOMAXPROCS is set, the workers share the
// machine's cores (GOMAXPROCS = cores / workers), as torchrun does with
// OMP_NUM_THREADS. Output of rank r > 0 is prefixed "[rank r] ". The
// first worker to fail stops the others and Launch returns an error naming its
// rank, exit status and last stderr lines; Ctrl-C (SIGINT/SIGTERM) is
// forwarded to all workers and no worker outlives Launch.
//
// When the program already runs under an external launcher (goaccel launch,
// torchrun, Slurm: WORLD_SIZE is set), Launch runs fn in-process instead.
// In a notebook cell Launch returns an error pointing to the
// `%accelerate launch` magic, which starts interpreted workers.
//
// Run is the engine underneath, for launchers that start another program
// (`goaccel launch`, the kernel's workers): it gives each worker the same
// environment and failure handling.
package notebook_launcher
