package main

import "github.com/goaccel/goaccel/internal/celllaunch"

// workerName is the hidden subcommand interpreted workers run as.
const workerName = celllaunch.WorkerCommand

// runWorker is `goaccel __worker`: one interpreted worker of a notebook
// launch, started by the kernel's executor with the job in its environment.
func runWorker(args []string) int { return celllaunch.WorkerMain() }
