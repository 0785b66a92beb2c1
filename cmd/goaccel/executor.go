package main

import (
	"os"

	"github.com/goaccel/goaccel/internal/derived"
	"github.com/goaccel/goaccel/internal/executormain"
	"github.com/goaccel/goaccel/internal/gobuild"
)

// executorName is the hidden subcommand the kernel starts its executor child with.
const executorName = executormain.Command

// runExecutor is the executor child (internal/executormain): cells that
// import packages this binary lacks move the session to a derived executor,
// which runs this binary for every other command.
func runExecutor(args []string) int {
	self, err := os.Executable()
	if err != nil {
		return fail(err)
	}
	return executormain.Run(derived.Spec{Base: self, Identity: gobuild.Identity()})
}

// runExtract writes the symbol tables of a derived executor's packages, in
// its build folder (derived.ExtractCommand).
func runExtract(args []string) int { return executormain.Extract(args) }
