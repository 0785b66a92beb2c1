package process

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/kernel/executor"
	"github.com/goaccel/goaccel/kernel/internal/derive"
	"github.com/goaccel/goaccel/kernel/internal/gobuild"
	"github.com/goaccel/goaccel/kernel/internal/launch"
	"github.com/goaccel/goaccel/kernel/internal/session"
)

// The hidden commands of the goaccel binary, which the kernel and the launcher
// start it with: ExecutorCommand runs a session's cells (`goaccel
// __executor`), WorkerCommand one interpreted worker of a notebook launch,
// ExtractCommand the symbol extraction of a derived executor's build.
const (
	ExecutorCommand = derive.ExecutorCommand
	WorkerCommand   = launch.WorkerCommand
	ExtractCommand  = derive.ExtractCommand
)

// RunExecutor is the executor process of the goaccel binary at base (its own
// path): it serves one session to the kernel that started it and returns the
// exit status. Cells that import packages the binary lacks move the session
// to a derived executor, which runs base for every other command.
func RunExecutor(base string) int {
	return runExecutor(derive.Spec{Base: base, Identity: gobuild.Identity()})
}

// runExecutor is the executor process: one session.Session served to the
// kernel over fd 3 (requests) and fd 4 (events), which processes a cell
// starts do not inherit; fd 1 and 2 are the cell's output. spec is the
// executor's own description (a derived executor's, or goaccel's with only
// Base and Identity) and tables the symbol tables of its packages beyond
// goaccel's. It installs the process's host: cells' displays and widgets go
// to the kernel, their launches to the session. It returns the exit status.
func runExecutor(spec derive.Spec, tables ...interp.Exports) int {
	// The kernel forwards interrupts as messages; a stray SIGINT must not kill
	// the session. Catching it (rather than ignoring it) keeps it deliverable
	// to the processes cells start: ignored signals stay ignored across exec.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGINT)
	reqs, events, err := executor.InheritedPipes()
	if err != nil {
		return fail(fmt.Errorf("%s is started by `goaccel kernel`, not by hand: %w", ExecutorCommand, err))
	}
	c := executor.NewChild(reqs, events, os.Stdout, os.Stderr)
	comms := comm.NewManager(c)
	comm.ServeWidgetControl(comms)
	sess, err := session.New(session.Options{
		Stdout: os.Stdout, Stderr: os.Stderr, Display: c,
		Tables: tables, Executor: spec, StateFile: os.Getenv(executor.EnvState),
		Comms: comms,
	})
	if err != nil {
		return fail(fmt.Errorf("start the interpreter: %w", err))
	}
	if err := host.Install(host.Host{Display: sess.Display(), Comms: comms, Cells: sess}); err != nil {
		return fail(err)
	}
	if err := c.Serve(context.Background(), sess); err != nil {
		return fail(err)
	}
	return 0
}

// fail prints err for the user and returns exit status 1.
func fail(err error) int {
	fmt.Fprintln(os.Stderr, "goaccel:", err)
	return 1
}
