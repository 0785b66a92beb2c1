package magics

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// scriptMagic returns %%bash or %%sh: the cell is a script for that shell,
// its output streamed as it comes. A non-zero exit status fails the cell, as
// in IPython 8, unless --no-raise-error is given.
func scriptMagic(shell string) func(context.Context, Call, Env) (Output, error) {
	return func(ctx context.Context, c Call, env Env) (Output, error) {
		raise := true
		for _, a := range strings.Fields(c.Args) {
			if a != "--no-raise-error" {
				return Output{}, fmt.Errorf("%%%%%s: unknown option %q (known: --no-raise-error)", shell, a)
			}
			raise = false
		}
		status, err := runCommand(ctx, env, "/bin/"+shell, "-c", c.Body)
		if err != nil {
			return Output{}, fmt.Errorf("%%%%%s: %w", shell, err)
		}
		if status != 0 && raise {
			return Output{}, fmt.Errorf("%%%%%s: the script exited with status %d", shell, status)
		}
		return Output{}, nil
	}
}

// runShell runs a !command with sh, streaming its output to the session's
// writers as it comes. Cancelling ctx kills the command's whole process group.
func runShell(ctx context.Context, command string, env Env) error {
	if command == "" {
		return errors.New("! needs a shell command, e.g. !ls -l")
	}
	status, err := runCommand(ctx, env, "/bin/sh", "-c", command)
	if err != nil {
		return fmt.Errorf("!%s: %w", command, err)
	}
	if status != 0 {
		fmt.Fprintf(env.Stderr(), "(command exited with status %d)\n", status)
	}
	return nil
}

// runCommand runs argv with its output streamed to env's writers and returns
// its exit status. Cancelling ctx kills its whole process group and returns
// ctx's error.
func runCommand(ctx context.Context, env Env, argv ...string) (int, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = env.Stdout(), env.Stderr()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	return 0, err
}
