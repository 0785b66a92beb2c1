package cli

import (
	"fmt"
)

// Resource bounds checked before a launch starts anything.
const (
	// maxPerCore bounds the processes of one machine per core: each is a
	// whole Go runtime, and past a few per core they only slow each other.
	maxPerCore = 16
	// launcherFilesPerProcess is what the launcher holds open per local
	// process (its stdout and stderr pipes, the process itself), and
	// launcherFilesBase what it holds besides.
	launcherFilesPerProcess, launcherFilesBase = 4, 64
	// workerFilesBase is what a worker holds open besides one connection
	// to every other rank.
	workerFilesBase = 64
)

// checkResources refuses a launch this machine cannot carry, with an error
// that says why and what to do: local processes on this machine, world in
// the whole job, under the open-file limit and the core count.
func checkResources(local, world int, fileLimit uint64, cores int) error {
	if local > maxPerCore*cores {
		return fmt.Errorf("%d processes on this machine is more than %d cores can run (at most %d per core, %d here); start fewer, or spread them over machines with --num_machines",
			local, cores, maxPerCore, maxPerCore*cores)
	}
	if need := uint64(launcherFilesPerProcess*local + launcherFilesBase); need > fileLimit {
		return fmt.Errorf("%d processes need about %d open files in the launcher, over this shell's limit of %d; raise it (ulimit -n) or start fewer processes",
			local, need, fileLimit)
	}
	if need := uint64(world + workerFilesBase); need > fileLimit {
		return fmt.Errorf("a job of %d processes needs about %d open files in each process (one connection to every other), over the limit of %d; raise it (ulimit -n) or start fewer processes",
			world, need, fileLimit)
	}
	return nil
}
