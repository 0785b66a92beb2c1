package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/goaccel/goaccel/notebook_launcher/cli"
)

// runLaunch is `goaccel launch [flags] ./pkg-or-binary [args]`; it returns the exit status.
func runLaunch(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return exitStatus(cli.LaunchCommand(ctx, args, os.Stdout, os.Stderr))
}

// exitStatus prints err for the user and maps it to a process exit status.
func exitStatus(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	default:
		fmt.Fprintln(os.Stderr, "goaccel:", err)
		return 1
	}
}
