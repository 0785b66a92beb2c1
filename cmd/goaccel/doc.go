// Command goaccel is the goaccel binary: a Go Jupyter kernel and an
// Accelerate-style launcher.
//
//	goaccel install [--user] [--prefix P]   register the "Go (goaccel)" kernel with Jupyter
//	goaccel kernel CONNECTION_FILE          run the kernel (what kernel.json starts)
//	goaccel launch|config|env ...           run and configure distributed training
//
// The binary also runs as its own child processes through hidden commands
// (package kernel/process names them): __executor, the process that runs a
// session's cells for the kernel (kernel/process.RunExecutor); __worker, one
// interpreted worker of a notebook launch (process.RunWorker); and __extract,
// the symbol extraction of a derived executor's build (process.RunExtract).
//
// Each subcommand lives in its own file; main.go only dispatches. The
// launcher's subcommands are thin wrappers over package
// notebook_launcher/cli, the kernel's over package kernel.
//
// Files:
//   - config.go: runConfig, `goaccel config` (cli.ConfigCommand).
//   - env.go: runEnv, `goaccel env` (cli.EnvCommand).
//   - executor.go: runExecutor, runWorker and runExtract, the hidden
//     __executor, __worker and __extract commands.
//   - install.go: runInstall, `goaccel install`: writes kernel.json with
//     package kernel/kernelspec.
//   - kernel.go: runKernel, `goaccel kernel CONNECTION_FILE`, and the
//     GOACCEL_LOG, GOACCEL_MAX_OUTPUT and GOACCEL_MAX_MESSAGE_SIZE settings.
//   - launch.go: runLaunch, `goaccel launch` (cli.LaunchCommand), and
//     exitStatus, which maps a command's error to an exit status.
//   - main.go: the table of subcommands, dispatch and the usage text.
package main
