// Package process holds the mains of the processes the kernel and the
// launcher start from the goaccel binary, other than the kernel itself,
// under the hidden commands ExecutorCommand, WorkerCommand and
// ExtractCommand.
//
//	self, err := os.Executable()
//	os.Exit(process.RunExecutor(self)) // `goaccel __executor`, which the kernel starts
//
// RunExecutor is the executor that runs a notebook's cells: one session
// (kernel/internal/session) served to the kernel over the pipes of package
// kernel/executor. It installs the process's host (internal/host): cells'
// displays and widgets go to the kernel, notebook_launcher.Launch in a cell
// goes to the session. RunWorker is one interpreted worker of a notebook
// launch (kernel/internal/launch). RunDerivedExecutor is the whole main of a
// derived executor (kernel/internal/derive), a binary built for a session
// whose cells import packages goaccel lacks, with those packages' symbol
// tables: it runs the executor, interpreted workers and RunExtract (the
// symbol extraction of a further derivation) itself, and hands every other
// command to the goaccel binary it was derived from. A derived executor is
// a module of its own, which is why this package is not internal.
//
// Files:
//   - derived.go: RunDerivedExecutor and RunExtract.
//   - executor.go: the hidden command names, RunExecutor and the executor
//     process, which installs the host.
//   - worker.go: RunWorker.
package process
