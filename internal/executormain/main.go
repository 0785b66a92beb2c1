package executormain

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"reflect"
	"syscall"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/celllaunch"
	"github.com/goaccel/goaccel/internal/derived"
	"github.com/goaccel/goaccel/internal/displaysink"
	"github.com/goaccel/goaccel/internal/gobuild"
	"github.com/goaccel/goaccel/internal/repl"
	tables "github.com/goaccel/goaccel/internal/symbols"
	"github.com/goaccel/goaccel/kernel/executor"
)

// Command is the hidden command an executor process runs as: `goaccel
// __executor`, or a derived executor's `BIN __executor`.
const Command = derived.ExecutorCommand

// Run is the executor process: one repl.Session served to the kernel over
// fd 3 (requests) and fd 4 (events), which processes a cell starts do not
// inherit; fd 1 and 2 are the cell's output. spec is the derived executor's
// own description (the zero Spec in the goaccel binary) and tables the
// symbol tables of its packages. It returns the exit status.
func Run(spec derived.Spec, tables ...interp.Exports) int {
	// The kernel forwards interrupts as messages; a stray SIGINT must not kill
	// the session. Catching it (rather than ignoring it) keeps it deliverable
	// to the processes cells start: ignored signals stay ignored across exec.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGINT)
	reqs, events, err := executor.InheritedPipes()
	if err != nil {
		return fail(fmt.Errorf("%s is started by `goaccel kernel`, not by hand: %w", Command, err))
	}
	c := executor.NewChild(reqs, events, os.Stdout, os.Stderr)
	displaysink.Set(c)
	sess, err := repl.New(repl.Options{
		Stdout: os.Stdout, Stderr: os.Stderr,
		Tables: tables, Executor: spec, StateFile: os.Getenv(executor.EnvState),
	})
	if err != nil {
		return fail(fmt.Errorf("start the interpreter: %w", err))
	}
	if err := c.Serve(context.Background(), sess); err != nil {
		return fail(err)
	}
	return 0
}

// Derived is the main of a derived executor: spec is its description as
// JSON, symbols the tables of its packages. It runs the executor, the
// interpreted workers of a launch and the symbol extraction of a further
// derivation itself, and hands every other command to the goaccel binary it
// was derived from.
func Derived(spec string, symbols map[string]map[string]reflect.Value) int {
	var s derived.Spec
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
		case derived.ExtractCommand:
			return Extract(os.Args[2:])
		case celllaunch.WorkerCommand: // a launch's interpreted worker, which may call the packages
			return celllaunch.WorkerMain()
		}
	}
	if len(os.Args) == 3 && os.Args[1] == Command {
		s.Base = os.Args[2] // see derived.Spec.Command
		os.Setenv(derived.EnvBase, s.Base)
		return Run(s)
	}
	base := os.Getenv(derived.EnvBase)
	if base == "" {
		return fail(fmt.Errorf("a derived executor runs the goaccel binary it was derived from for %v, and %s does not name it: run goaccel instead", os.Args[1:], derived.EnvBase))
	}
	err := syscall.Exec(base, append([]string{base}, os.Args[1:]...), os.Environ())
	return fail(fmt.Errorf("run the goaccel binary this executor was derived from (%s): %w", base, err))
}

// Extract is the derived build's symbol extraction (derived.ExtractCommand):
// run in the build's folder, it writes there the yaegi symbol tables of the
// packages args name.
func Extract(args []string) int {
	if err := derived.Extract(".", args); err != nil {
		return fail(err)
	}
	return 0
}

func fail(err error) int {
	fmt.Fprintln(os.Stderr, "goaccel:", err)
	return 1
}
