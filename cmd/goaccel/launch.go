package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/goaccel/goaccel/notebook_launcher/cli"
)

// runLaunch is `goaccel launch [flags] ./pkg-or-binary [args]`; it returns
// the exit status. LaunchCommand handles SIGINT and SIGTERM itself: the
// first stops the workers gracefully, the next at once.
func runLaunch(args []string) int {
	return exitStatus(cli.LaunchCommand(context.Background(), args, os.Stdout, os.Stderr))
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
