package main

import (
	"os"

	"github.com/goaccel/goaccel/internal/launchcli"
)

// runEnv is `goaccel env [--config_file PATH]`.
func runEnv(args []string) int {
	return exitStatus(launchcli.EnvCommand(args, os.Stdout))
}
