package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/goaccel/goaccel/kernel/process"
)

// subcommand is one "goaccel NAME" entry point; run returns the exit status.
type subcommand struct {
	run     func(args []string) int
	summary string // "" hides it from the usage text
}

// subcommands lists every entry point; each lives in its own file.
var subcommands = map[string]subcommand{
	"install":               {runInstall, "register the Go (goaccel) kernel with Jupyter"},
	"kernel":                {runKernel, "run the kernel for a Jupyter connection file"},
	"launch":                {runLaunch, "run a training program on N processes (accelerate launch flags)"},
	"config":                {runConfig, "write the launch configuration (accelerate config)"},
	"env":                   {runEnv, "print the environment goaccel sees"},
	process.ExecutorCommand: {runExecutor, ""},
	process.WorkerCommand:   {runWorker, ""},
	process.ExtractCommand:  {runExtract, ""},
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	name := os.Args[1]
	if name == "-h" || name == "--help" || name == "help" {
		usage()
		return
	}
	cmd, ok := subcommands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "goaccel: unknown command %q\n", name)
		usage()
		os.Exit(2)
	}
	os.Exit(cmd.run(os.Args[2:]))
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: goaccel COMMAND [arguments]\n\ncommands:")
	names := make([]string, 0, len(subcommands))
	for n, c := range subcommands {
		if c.summary != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", n, subcommands[n].summary)
	}
}

// fail prints err for the user and returns exit status 1.
func fail(err error) int {
	fmt.Fprintln(os.Stderr, "goaccel:", err)
	return 1
}
