package magics

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// runShell runs a !command with sh, streaming its output to the session's
// writers as it comes. Cancelling ctx kills the command's whole process group.
func runShell(ctx context.Context, command string, env Env) error {
	if command == "" {
		return errors.New("! needs a shell command, e.g. !ls -l")
	}
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdout, cmd.Stderr = env.Stdout(), env.Stderr()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		fmt.Fprintf(env.Stderr(), "(command exited with status %d)\n", exit.ExitCode())
		return nil
	}
	if err != nil {
		return fmt.Errorf("!%s: %w", command, err)
	}
	return nil
}
