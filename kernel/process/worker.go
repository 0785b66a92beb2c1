package process

import "github.com/goaccel/goaccel/kernel/internal/launch"

// RunWorker is one interpreted worker of a notebook launch (`goaccel
// __worker`), started by the executor with the job in its environment. Its
// harness (notebook_launcher/job) installs the process's host. It returns
// the exit status.
func RunWorker() int { return launch.WorkerMain() }
