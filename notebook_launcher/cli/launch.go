package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// Flags are `accelerate launch`'s flags that goaccel honours, shared by
// `goaccel launch` and the notebook's `%accelerate launch`. Register adds them
// to a FlagSet; after parsing, Options merges them with the config file.
type Flags struct {
	configFile, mixedPrecision, mainIP, gpuIDs string
	numProcesses, numMachines, machineRank     int
	mainPort, maxRestarts, threads, gradAccum  int
	cpu, multiGPU, resume                      bool
	stallThreshold                             time.Duration
	fsdp                                       fsdpFlags
}

// Register adds the flags to fs, each under its accelerate name and with
// dashes (--num_processes and --num-processes).
func (f *Flags) Register(fs *flag.FlagSet) {
	str := func(p *string, name, usage string) {
		fs.StringVar(p, name, "", usage)
		fs.StringVar(p, strings.ReplaceAll(name, "_", "-"), "", "same as --"+name)
	}
	num := func(p *int, name, usage string) {
		*p = -1 // unset: the config file decides
		fs.Var((*optInt)(p), name, "`N`: "+usage+" (default: the config file's)")
		fs.Var((*optInt)(p), strings.ReplaceAll(name, "_", "-"), "same as --"+name)
	}
	count := func(p *int, name, usage string) {
		*p = -1
		fs.Var((*countFlag)(p), name, "`N`: "+usage+", at least 1 (default: the config file's)")
		fs.Var((*countFlag)(p), strings.ReplaceAll(name, "_", "-"), "same as --"+name)
	}
	str(&f.configFile, "config_file", "YAML configuration (default "+DefaultConfigFile()+")")
	str(&f.mixedPrecision, "mixed_precision", "no, fp16 or bf16")
	str(&f.mainIP, "main_process_ip", "address of the machine with rank 0 (multi-node)")
	str(&f.gpuIDs, "gpu_ids", "comma-separated GPU ids for this machine, or all")
	count(&f.numProcesses, "num_processes", "total number of processes across all machines")
	count(&f.numMachines, "num_machines", "number of machines")
	num(&f.machineRank, "machine_rank", "rank of this machine (default under srun: SLURM_NODEID)")
	num(&f.mainPort, "main_process_port", "rendezvous port (0: a free port on one machine)")
	num(&f.maxRestarts, "max_restarts", "restarts of the whole group after a failure")
	num(&f.threads, "num_cpu_threads_per_process", "GOMAXPROCS of each process (default: cores / local processes)")
	count(&f.gradAccum, "gradient_accumulation_steps", "steps whose gradients add up before each optimizer step")
	fs.BoolVar(&f.cpu, "cpu", false, "force training on the CPU")
	fs.BoolVar(&f.multiGPU, "multi_gpu", false, "one process per GPU (distributed_type MULTI_GPU)")
	fs.BoolVar(&f.resume, "resume", false, "continue from the latest automatic checkpoint (where a stopped run saved), mid-epoch included")
	fs.DurationVar(&f.stallThreshold, "stall_threshold", 0, "report the ranks a collective waits for once it has waited this `long` (default 1m; negative: never)")
	fs.DurationVar(&f.stallThreshold, "stall-threshold", 0, "same as --stall_threshold")
	f.fsdp.register(fs)
}

// LaunchCommand runs `goaccel launch [flags] ./pkg-or-binary [args]`: it merges
// the config file with the flags, builds a Go package when given one, and runs
// the processes of this machine with the torchrun environment. The first
// SIGINT or SIGTERM asks the workers to finish their step, save their state
// and leave (the error is then a *workers.StoppedError); the next stops them
// at once.
func LaunchCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	ctl := &workers.Control{}
	ctx, stop := workers.InterruptOnSignals(ctx, ctl)
	defer stop()
	fs := flag.NewFlagSet("goaccel launch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: goaccel launch [flags] ./pkg-or-binary [program args]")
		fs.PrintDefaults()
	}
	var f Flags
	f.Register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("goaccel launch: name the program to run (a Go package like ./cmd/train, or a binary)")
	}
	opts, err := f.Options()
	if err != nil {
		return fmt.Errorf("goaccel launch: %w", err)
	}
	opts.Stdout, opts.Stderr = stdout, stderr
	bin, cleanup, err := resolveProgram(ctx, fs.Arg(0), stderr)
	if err != nil {
		return fmt.Errorf("goaccel launch: %w", err)
	}
	defer cleanup()
	err = nl.Run(ctx, bin, fs.Args()[1:], nil, opts, ctl)
	var stopped *workers.StoppedError
	if errors.As(err, &stopped) {
		return fmt.Errorf("goaccel launch: stopped on request: every worker finished its step and saved its state in %s (after %d optimizer steps); continue with: goaccel launch --resume %s",
			stopped.Checkpoint, stopped.Step, strings.Join(withoutResume(args), " "))
	}
	if errors.Is(err, workers.ErrInterrupted) {
		return errors.New("goaccel launch: interrupted: every worker was stopped")
	}
	return err
}

// withoutResume is args less a --resume flag (the hint adds its own).
func withoutResume(args []string) []string {
	var out []string
	for _, a := range args {
		if a != "--resume" && a != "-resume" && a != "--resume=true" {
			out = append(out, a)
		}
	}
	return out
}

// Options merges the config file (when present) with the flags; flags win.
// Without either, a launch runs one process per visible GPU, else one.
func (f *Flags) Options() (nl.Options, error) {
	path := f.configFile
	if path == "" {
		path = DefaultConfigFile()
	}
	c, found, err := LoadConfig(path)
	if err != nil {
		return nl.Options{}, err
	}
	if f.configFile != "" && !found {
		return nl.Options{}, fmt.Errorf("config file %s does not exist (create it with `goaccel config --config_file %s`)", path, path)
	}
	if !found {
		c = Config{NumMachines: 1} // processes: one per visible GPU, else one (below)
	}
	override := func(dst *int, v int) {
		if v >= 0 {
			*dst = v
		}
	}
	override(&c.NumProcesses, f.numProcesses)
	override(&c.NumMachines, f.numMachines)
	override(&c.MachineRank, f.machineRank)
	if id, err := strconv.Atoi(os.Getenv("SLURM_NODEID")); err == nil && f.machineRank < 0 && c.NumMachines > 1 {
		// Under srun, one goaccel launch per node: Slurm numbers the
		// nodes, as torchrun's c10d rendezvous does for accelerate launch.
		c.MachineRank = id
	}
	override(&c.MainProcessPort, f.mainPort)
	override(&c.MaxRestarts, f.maxRestarts)
	if f.mixedPrecision != "" {
		c.MixedPrecision = f.mixedPrecision
	}
	if f.mainIP != "" {
		c.MainProcessIP = f.mainIP
	}
	if f.gpuIDs != "" {
		c.GPUIDs = f.gpuIDs
	}
	if f.cpu {
		c.UseCPU = true
	}
	if f.multiGPU {
		c.DistributedType = "MULTI_GPU"
	}
	fsdp, err := f.fsdp.merge(c)
	if err != nil {
		return nl.Options{}, err
	}
	if c.NumMachines == 0 {
		c.NumMachines = 1
	}
	if c.NumProcesses == 0 {
		c.NumProcesses = max(1, workers.VisibleGPUs()) * c.NumMachines
	}
	if err := c.Validate(); err != nil {
		return nl.Options{}, err
	}
	if c.NumProcesses%c.NumMachines != 0 {
		return nl.Options{}, fmt.Errorf("--num_processes %d is not a multiple of --num_machines %d (it counts processes on all machines)", c.NumProcesses, c.NumMachines)
	}
	if c.NumMachines > 1 && (c.MainProcessIP == "" || c.MainProcessPort == 0) {
		return nl.Options{}, fmt.Errorf("with %d machines, give --main_process_ip and --main_process_port (the same on every machine)", c.NumMachines)
	}
	files, cores := machineLimits()
	if err := checkResources(c.NumProcesses/c.NumMachines, c.NumProcesses, files, cores); err != nil {
		return nl.Options{}, fmt.Errorf("--num_processes %d: %w", c.NumProcesses, err)
	}
	opts := nl.Options{
		NumProcesses: c.NumProcesses / c.NumMachines, NumNodes: c.NumMachines, NodeRank: c.MachineRank,
		MasterAddr: c.MainProcessIP, Port: c.MainProcessPort, MaxRestarts: c.MaxRestarts,
		MixedPrecision: c.MixedPrecision, GradientAccumulationSteps: max(f.gradAccum, 0),
		CPU: c.UseCPU, ThreadsPerProcess: max(f.threads, 0),
		Resume: f.resume, StallThreshold: f.stallThreshold, FSDP: fsdp,
	}
	if c.GPUIDs != "all" {
		opts.GPUIDs = c.GPUIDs
	}
	return opts, nil
}

// resolveProgram returns an executable for target: the file itself when it is
// one, otherwise the result of `go build` on the package it names.
func resolveProgram(ctx context.Context, target string, stderr io.Writer) (string, func(), error) {
	noop := func() {}
	if st, err := os.Stat(target); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
		abs, err := filepath.Abs(target)
		return abs, noop, err
	}
	dir, err := os.MkdirTemp("", "goaccel-launch-")
	if err != nil {
		return "", noop, fmt.Errorf("make build folder: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	// Named after the package's folder or file: "." has a name too.
	name := target
	if abs, err := filepath.Abs(target); err == nil {
		name = abs
	}
	bin := filepath.Join(dir, strings.TrimSuffix(filepath.Base(name), ".go"))
	pkg, workdir := target, ""
	if st, err := os.Stat(target); err == nil {
		// A local folder or file: build it from where it lives, so its own module applies.
		workdir, pkg = target, "."
		if !st.IsDir() {
			workdir, pkg = filepath.Dir(target), "./"+filepath.Base(target)
		}
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
	cmd.Dir = workdir
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		cleanup()
		return "", noop, fmt.Errorf("%s is neither an executable nor a Go package that builds (go build: %w)", target, err)
	}
	return bin, cleanup, nil
}

// countFlag is a count flag (processes, machines): a whole number of at
// least 1; unset it is -1 and prints as nothing.
type countFlag int

func (c *countFlag) String() string { return (*optInt)(c).String() }

func (c *countFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return fmt.Errorf("%q is not a count: give a whole number of at least 1", s)
	}
	*c = countFlag(n)
	return nil
}

// optInt is an int flag whose unset value (-1) prints as nothing, so the
// usage text shows no misleading default.
type optInt int

func (o *optInt) String() string {
	if o == nil || *o <= 0 {
		return "" // also for 0, so usage text prints no default
	}
	return strconv.Itoa(int(*o))
}

func (o *optInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a whole number ≥ 0", s)
	}
	*o = optInt(n)
	return nil
}
