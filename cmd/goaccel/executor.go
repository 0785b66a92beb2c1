package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/goaccel/goaccel/internal/displaysink"
	"github.com/goaccel/goaccel/internal/repl"
	"github.com/goaccel/goaccel/kernel/executor"
)

// executorName is the hidden subcommand the kernel starts its executor child with.
const executorName = "__executor"

// runExecutor is the executor child: one repl.Session served to the kernel
// over fd 3 (requests) and fd 4 (events), which processes a cell starts do
// not inherit; fd 1 and 2 are the cell's output.
func runExecutor(args []string) int {
	// The kernel forwards interrupts as messages; a stray SIGINT must not kill
	// the session. Catching it (rather than ignoring it) keeps it deliverable
	// to the processes cells start: ignored signals stay ignored across exec.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGINT)
	reqs, events, err := executor.InheritedPipes()
	if err != nil {
		return fail(fmt.Errorf("%s is started by `goaccel kernel`, not by hand: %w", executorName, err))
	}
	c := executor.NewChild(reqs, events, os.Stdout, os.Stderr)
	displaysink.Set(c)
	sess, err := repl.New(repl.Options{Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		return fail(fmt.Errorf("start the interpreter: %w", err))
	}
	if err := c.Serve(context.Background(), sess); err != nil {
		return fail(err)
	}
	return 0
}
