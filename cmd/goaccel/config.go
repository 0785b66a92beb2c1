package main

import (
	"os"

	"github.com/goaccel/goaccel/notebook_launcher/cli"
)

// runConfig is `goaccel config [default] [--config_file PATH] [--mixed_precision MP]`.
func runConfig(args []string) int {
	return exitStatus(cli.ConfigCommand(args, os.Stdin, os.Stdout))
}
