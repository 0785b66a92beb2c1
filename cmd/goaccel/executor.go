package main

import (
	"context"
	"fmt"
	"io"
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
	if err := c.Serve(context.Background(), replSession{sess}); err != nil {
		return fail(err)
	}
	return 0
}

// replSession adapts repl.Session to executor.Session.
type replSession struct{ s *repl.Session }

func (r replSession) SetStdin(in io.Reader) { r.s.SetStdin(in) }

func (r replSession) Execute(ctx context.Context, code string) executor.Result {
	res := r.s.Execute(ctx, code)
	out := executor.Result{Data: res.Data, Metadata: res.Metadata, Payload: res.Payload, Interrupted: res.Interrupted}
	if res.Error != nil {
		out.Error = &executor.Error{Ename: res.Error.Ename, Evalue: res.Error.Evalue, Traceback: res.Error.Traceback}
	}
	return out
}

func (r replSession) UserExpressions(ctx context.Context, exprs map[string]string) map[string]any {
	return r.s.UserExpressions(ctx, exprs)
}

func (r replSession) SetExecutionCount(n int) { r.s.SetExecutionCount(n) }

func (r replSession) IsComplete(code string) (string, string) { return r.s.IsComplete(code) }

func (r replSession) Complete(code string, cursor int) ([]string, int, int) {
	return r.s.Complete(code, cursor)
}

func (r replSession) Inspect(code string, cursor, detail int) (bool, map[string]any) {
	return r.s.Inspect(code, cursor, detail)
}
