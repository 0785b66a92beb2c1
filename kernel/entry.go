package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"reflect"
	"syscall"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/displaysink"
	"github.com/goaccel/goaccel/kernel/executor"
	"github.com/goaccel/goaccel/kernel/internal/derive"
	"github.com/goaccel/goaccel/kernel/internal/gobuild"
	tables "github.com/goaccel/goaccel/kernel/internal/interpreter/symbols"
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

// RunWorker is one interpreted worker of a notebook launch (`goaccel
// __worker`), started by the executor with the job in its environment. It
// returns the exit status.
func RunWorker() int { return launch.WorkerMain() }

// runExecutor is the executor process: one session.Session served to the
// kernel over fd 3 (requests) and fd 4 (events), which processes a cell
// starts do not inherit; fd 1 and 2 are the cell's output. spec is the
// derived executor's own description (the zero Spec in the goaccel binary)
// and tables the symbol tables of its packages. It returns the exit status.
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
	displaysink.Set(c)
	comms := comm.NewManager(c)
	comm.ServeWidgetControl(comms)
	comm.Install(comms)
	sess, err := session.New(session.Options{
		Stdout: os.Stdout, Stderr: os.Stderr,
		Tables: tables, Executor: spec, StateFile: os.Getenv(executor.EnvState),
		Comms: comms,
	})
	if err != nil {
		return fail(fmt.Errorf("start the interpreter: %w", err))
	}
	if err := c.Serve(context.Background(), sess); err != nil {
		return fail(err)
	}
	return 0
}

// RunDerivedExecutor is the main of a derived executor (the program
// package derive generates): spec is its description as JSON, symbols the
// tables of its packages. It runs the executor, the
// interpreted workers of a launch and the symbol extraction of a further
// derivation itself, and hands every other command to the goaccel binary it
// was derived from.
func RunDerivedExecutor(spec string, symbols map[string]map[string]reflect.Value) int {
	var s derive.Spec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		return fail(fmt.Errorf("a derived executor with a bad description: %w", err))
	}
	gobuild.SetIdentity(s.Identity) // its builds are the goaccel binary's
	// Every interpreter of the process (the session's, an interpreted
	// worker's) has the packages, as it has goaccel's.
	for path, syms := range symbols {
		tables.Symbols[path] = syms
	}
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case derive.ExtractCommand:
			return RunExtract(os.Args[2:])
		case launch.WorkerCommand: // a launch's interpreted worker, which may call the packages
			return launch.WorkerMain()
		}
	}
	if len(os.Args) == 3 && os.Args[1] == ExecutorCommand {
		s.Base = os.Args[2] // see derive.Spec.Command
		os.Setenv(derive.EnvBase, s.Base)
		return runExecutor(s)
	}
	base := os.Getenv(derive.EnvBase)
	if base == "" {
		return fail(fmt.Errorf("a derived executor runs the goaccel binary it was derived from for %v, and %s does not name it: run goaccel instead", os.Args[1:], derive.EnvBase))
	}
	err := syscall.Exec(base, append([]string{base}, os.Args[1:]...), os.Environ())
	return fail(fmt.Errorf("run the goaccel binary this executor was derived from (%s): %w", base, err))
}

// RunExtract is the derived build's symbol extraction (ExtractCommand): run
// in the build's folder, it writes there the yaegi symbol tables of the
// packages args name, and returns the exit status.
func RunExtract(args []string) int {
	if err := derive.Extract(".", args); err != nil {
		return fail(err)
	}
	return 0
}

// fail prints err for the user and returns exit status 1.
func fail(err error) int {
	fmt.Fprintln(os.Stderr, "goaccel:", err)
	return 1
}
