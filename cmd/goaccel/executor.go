package main

import (
	"os"

	"github.com/goaccel/goaccel/kernel/process"
)

// runExecutor is the executor child (process.RunExecutor): cells that import
// packages this binary lacks move the session to a derived executor, which
// runs this binary for every other command.
func runExecutor(args []string) int {
	self, err := os.Executable()
	if err != nil {
		return fail(err)
	}
	return process.RunExecutor(self)
}

// runExtract writes the symbol tables of a derived executor's packages, in
// its build folder (process.ExtractCommand).
func runExtract(args []string) int { return process.RunExtract(args) }

// runWorker is `goaccel __worker`: one interpreted worker of a notebook
// launch, started by the kernel's executor with the job in its environment.
func runWorker(args []string) int { return process.RunWorker() }
