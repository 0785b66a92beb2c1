package main

import (
	"os"

	"github.com/goaccel/goaccel/notebook_launcher/cli"
)

// runEnv is `goaccel env [--config_file PATH]`.
func runEnv(args []string) int {
	return exitStatus(cli.EnvCommand(args, os.Stdout))
}
