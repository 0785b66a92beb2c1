package magics

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"

	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/notebook_launcher/cli"
)

// Launcher is what an Env needs for %accelerate launch and export: a
// session that evaluates a call's arguments and starts workers from its
// declarations.
type Launcher interface {
	// Launch runs call ("train" or "train(cfg, 0.1)") on workers with opts;
	// output names a notebook variable for rank 0's result ("": none). The
	// Output's Result carries the cell's result or its error.
	Launch(ctx context.Context, call string, opts nl.Options, output string) (Output, error)
	// Export writes a program that runs call into dir.
	Export(ctx context.Context, dir, call string, opts nl.Options) (Output, error)
}

const accelerateUsage = `usage:
  %accelerate launch [flags] [-o NAME] [--compile] FUNC[(ARGS…)]   run FUNC on worker processes
  %accelerate export [flags] DIR FUNC[(ARGS…)]                     write FUNC as a standalone program
  %accelerate env                                                  what goaccel sees (goaccel env)
  %accelerate config [key=value …]                                 show or set the saved launch defaults

flags (as goaccel launch and accelerate launch):`

func accelerateMagic(ctx context.Context, c Call, env Env) (Output, error) {
	sub, rest := splitName(c.Args)
	switch sub {
	case "launch", "export":
		l, ok := env.(Launcher)
		if !ok {
			return Output{}, fmt.Errorf("%%accelerate %s needs a goaccel notebook session", sub)
		}
		return launchOrExport(ctx, sub, rest, l, env.Stderr())
	case "env":
		return Output{}, cli.EnvCommand(strings.Fields(rest), env.Stdout())
	case "config":
		return Output{}, cli.ConfigMagic(strings.Fields(rest), env.Stdout())
	case "", "help", "-h", "--help":
		fmt.Fprintln(env.Stdout(), accelerateUsage)
		fs, _ := launchFlagSet(env.Stdout())
		fs.PrintDefaults()
		return Output{}, nil
	}
	return Output{}, fmt.Errorf("%%accelerate %s: unknown subcommand; use launch, export, env or config (%%accelerate help)", sub)
}

// launchFlags are launch's flags plus the magic's own.
type launchFlags struct {
	cli.Flags
	compile bool
	output  string
}

func launchFlagSet(out io.Writer) (*flag.FlagSet, *launchFlags) {
	fs := flag.NewFlagSet("%accelerate", flag.ContinueOnError)
	fs.SetOutput(out)
	f := &launchFlags{}
	f.Register(fs)
	fs.BoolVar(&f.compile, "compile", false, "build the workers with the Go toolchain (cached) instead of interpreting them")
	fs.StringVar(&f.output, "o", "", "store rank 0's result in the notebook variable `NAME`")
	return fs, f
}

// launchOrExport parses "[flags] CALL" (launch) or "[flags] DIR CALL"
// (export). The call keeps its text as written: flags are parsed from the
// words before it, and it is whatever follows.
func launchOrExport(ctx context.Context, sub, rest string, l Launcher, stderr io.Writer) (Output, error) {
	fs, f := launchFlagSet(stderr)
	words := fieldsWithOffsets(rest)
	args := make([]string, len(words))
	for i, w := range words {
		args[i] = rest[w[0]:w[1]]
	}
	if err := fs.Parse(args); err != nil {
		return Output{}, fmt.Errorf("%%accelerate %s: %w", sub, err)
	}
	left := fs.NArg()
	at := len(rest)
	if left > 0 {
		at = words[len(words)-left][0]
	}
	tail := strings.TrimSpace(rest[at:])
	opts, err := f.Options()
	if err != nil {
		return Output{}, fmt.Errorf("%%accelerate %s: %w", sub, err)
	}
	opts.Compile = f.compile
	if sub == "launch" {
		if tail == "" {
			return Output{}, errors.New("%accelerate launch needs a function to run, e.g. %accelerate launch --num_processes 2 train(cfg)")
		}
		return l.Launch(ctx, tail, opts, f.output)
	}
	dir, call, _ := strings.Cut(tail, " ")
	if strings.TrimSpace(call) == "" {
		return Output{}, errors.New("%accelerate export needs a folder and a function, e.g. %accelerate export ./train_job train(cfg)")
	}
	return l.Export(ctx, dir, strings.TrimSpace(call), opts)
}

// fieldsWithOffsets splits s at spaces, returning each word's [start, end).
func fieldsWithOffsets(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		switch {
		case unicode.IsSpace(r) && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		case !unicode.IsSpace(r) && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}
