package main

import (
	"os"

	"github.com/goaccel/goaccel/internal/launchcli"
)

// runConfig is `goaccel config [default] [--config_file PATH] [--mixed_precision MP]`.
func runConfig(args []string) int {
	return exitStatus(launchcli.ConfigCommand(args, os.Stdin, os.Stdout))
}
