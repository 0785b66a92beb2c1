package notebook_launcher

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"sync"
	"syscall"

	"github.com/goaccel/goaccel/dist"
	"github.com/goaccel/goaccel/internal/displaysink"
	"github.com/goaccel/goaccel/internal/procgroup"
)

// Options configures Launch. The zero value runs 2 processes on one node.
type Options struct {
	// NumProcesses is the number of workers on this node (0: 2).
	NumProcesses int
	// MixedPrecision is "no", "fp16" or "bf16" ("": the worker's own setting);
	// exported to workers as ACCELERATE_MIXED_PRECISION.
	MixedPrecision string
	// MasterAddr is the rank-0 host ("": 127.0.0.1).
	MasterAddr string
	// Port is the rendezvous port (0: a free port, on one node only).
	Port int
	// NumNodes and NodeRank place this launcher in a multi-node job (0: 1 and 0).
	NumNodes, NodeRank int
	// MaxRestarts is how many times the whole group is restarted after a failure.
	MaxRestarts int
	// Args are the arguments the re-executed program gets (nil: this
	// process's own). Tests pass []string{"-test.run=^" + t.Name() + "$"}.
	Args []string
	// Stdout and Stderr receive the workers' output (nil: os.Stdout, os.Stderr).
	Stdout, Stderr io.Writer
}

// Environment variables that mark and configure a worker.
const (
	// EnvWorker names the Launch call a worker runs: its call site and the
	// number of times that site was reached ("file.go:42#1"), or "#*" (the
	// first call at that site) when the workers got custom Options.Args.
	EnvWorker = "GOACCEL_LAUNCH_WORKER"
	// EnvRestart is the restart count of the group the worker belongs to.
	EnvRestart = "GOACCEL_RESTART_COUNT"
	// EnvToken is the per-job secret the rendezvous store checks.
	EnvToken = "GOACCEL_STORE_TOKEN"
)

// siteCalls counts how often each Launch call site was reached in this process,
// so that a worker runs the fn of exactly the call that started it.
var (
	callsMu   sync.Mutex
	siteCalls = map[string]int{}
)

// Launch runs fn on opts.NumProcesses worker processes and waits for them.
// In a worker process it runs fn and exits the process (status 0 when fn
// returns; a panic exits non-zero with its trace). See the package doc.
func Launch(fn func(), opts Options) error {
	return launch(context.Background(), fn, opts)
}

// LaunchContext is Launch with a context: cancelling it stops every worker.
func LaunchContext(ctx context.Context, fn func(), opts Options) error {
	return launch(ctx, fn, opts)
}

func launch(ctx context.Context, fn func(), opts Options) error {
	_, file, line, _ := runtime.Caller(2)
	site := file + ":" + strconv.Itoa(line)
	callsMu.Lock()
	siteCalls[site]++
	call := site + "#" + strconv.Itoa(siteCalls[site])
	callsMu.Unlock()

	if v := os.Getenv(EnvWorker); v != "" {
		// Workers re-executed with custom Args (a test binary running one
		// test) do not replay the parent's path: the call site alone decides.
		if call != v && v != site+"#*" {
			return nil // another Launch call started this worker
		}
		fn()
		os.Exit(0)
	}
	if os.Getenv("WORLD_SIZE") != "" {
		fn() // already a worker of an external launcher
		return nil
	}
	if displaysink.Get() != nil {
		// Inside the kernel's executor: re-executing this binary would start
		// executors, not the cell's function.
		return fmt.Errorf("notebook_launcher: Launch re-executes a compiled program and cannot run a notebook cell's function; in a notebook use the magic `%%accelerate launch --num_processes %d FUNC`", max(opts.NumProcesses, 2))
	}
	if err := opts.normalize(); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("notebook_launcher: find own executable: %w", err)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	args := opts.Args
	if args == nil {
		for _, a := range os.Args[1:] {
			// A test binary's workers must be allowed to exit 0 from inside a test.
			if a != "-test.paniconexit0" {
				args = append(args, a)
			}
		}
	}
	if opts.Args != nil {
		call = site + "#*"
	}
	return Run(ctx, exe, args, []string{EnvWorker + "=" + call}, opts)
}

// Run starts opts.NumProcesses copies of the program at path with args, each
// with the torchrun environment plus extra, and restarts the whole group up to
// opts.MaxRestarts times after a failure. It is the engine of Launch and of
// `goaccel launch`.
func Run(ctx context.Context, path string, args, extra []string, opts Options) error {
	if err := opts.normalize(); err != nil {
		return err
	}
	var err error
	for attempt := 0; attempt <= opts.MaxRestarts; attempt++ {
		err = runOnce(ctx, path, args, extra, opts, attempt)
		if err == nil || errors.Is(err, procgroup.ErrInterrupted) || ctx.Err() != nil {
			return err
		}
		if attempt < opts.MaxRestarts {
			fmt.Fprintf(opts.stderr(), "notebook_launcher: %v\nnotebook_launcher: restarting all workers (%d of %d)\n",
				err, attempt+1, opts.MaxRestarts)
		}
	}
	if opts.MaxRestarts > 0 {
		return fmt.Errorf("notebook_launcher: gave up after %d restarts: %w", opts.MaxRestarts, err)
	}
	return fmt.Errorf("notebook_launcher: %w", err)
}

func runOnce(ctx context.Context, path string, args, extra []string, opts Options, attempt int) error {
	token := opts.token()
	port := opts.Port
	var extraStore []string
	if port == 0 {
		// One node, any port: this launcher hosts the rendezvous store itself
		// on a port the kernel picks (no race for a "free" port) and it
		// outlives the workers, so it can tell which one vanished first.
		srv, err := dist.ServeStore(net.JoinHostPort(opts.MasterAddr, "0"), token)
		if err != nil {
			return fmt.Errorf("notebook_launcher: host the rendezvous store: %w", err)
		}
		defer srv.Close()
		_, p, _ := net.SplitHostPort(srv.Addr())
		port, _ = strconv.Atoi(p)
		extraStore = []string{dist.EnvStoreAddr + "=" + srv.Addr()}
	}
	world := opts.NumProcesses * opts.NumNodes
	rank := func(local int) int { return opts.NodeRank*opts.NumProcesses + local }
	env := func(local int) []string {
		e := []string{
			"RANK=" + strconv.Itoa(rank(local)),
			"WORLD_SIZE=" + strconv.Itoa(world),
			"LOCAL_RANK=" + strconv.Itoa(local),
			"LOCAL_WORLD_SIZE=" + strconv.Itoa(opts.NumProcesses),
			"GROUP_RANK=" + strconv.Itoa(opts.NodeRank),
			"MASTER_ADDR=" + opts.MasterAddr,
			"MASTER_PORT=" + strconv.Itoa(port),
			EnvRestart + "=" + strconv.Itoa(attempt),
		}
		if token != "" {
			e = append(e, EnvToken+"="+token)
		}
		if opts.MixedPrecision != "" {
			e = append(e, "ACCELERATE_MIXED_PRECISION="+opts.MixedPrecision)
		}
		if _, set := os.LookupEnv("GOMAXPROCS"); !set && opts.NumProcesses > 1 {
			// Share the cores among the workers, as torchrun does with OMP_NUM_THREADS.
			e = append(e, "GOMAXPROCS="+strconv.Itoa(max(1, runtime.NumCPU()/opts.NumProcesses)))
		}
		e = append(e, extraStore...)
		return append(e, extra...) // last, so the caller's values win (os/exec keeps the last duplicate)
	}
	return procgroup.Run(ctx, procgroup.Spec{
		Path: path, Args: args, NumProcs: opts.NumProcesses,
		Env: env, Rank: rank, Stdout: opts.Stdout, Stderr: opts.Stderr,
	})
}

func (o *Options) normalize() error {
	if o.NumProcesses == 0 {
		o.NumProcesses = 2
	}
	if o.NumNodes == 0 {
		o.NumNodes = 1
	}
	if o.MasterAddr == "" {
		o.MasterAddr = "127.0.0.1"
	}
	switch {
	case o.NumProcesses < 0:
		return fmt.Errorf("notebook_launcher: NumProcesses is %d; use a positive number of workers per node", o.NumProcesses)
	case o.NumNodes < 0:
		return fmt.Errorf("notebook_launcher: NumNodes is %d; use a positive number of nodes", o.NumNodes)
	case o.NodeRank < 0 || o.NodeRank >= o.NumNodes:
		return fmt.Errorf("notebook_launcher: NodeRank is %d; it must be in [0, %d) for NumNodes=%d", o.NodeRank, o.NumNodes, o.NumNodes)
	case o.MaxRestarts < 0:
		return fmt.Errorf("notebook_launcher: MaxRestarts is %d; use 0 or more", o.MaxRestarts)
	case o.NumNodes > 1 && o.Port == 0:
		return fmt.Errorf("notebook_launcher: Port must be set when NumNodes > 1 (every node must agree on it)")
	}
	switch o.MixedPrecision {
	case "", "no", "fp16", "bf16":
	default:
		return fmt.Errorf("notebook_launcher: MixedPrecision is %q; use \"no\", \"fp16\" or \"bf16\"", o.MixedPrecision)
	}
	return nil
}

func (o *Options) stderr() io.Writer {
	if o.Stderr != nil {
		return o.Stderr
	}
	return os.Stderr
}

// token is the job's rendezvous secret: inherited when set (multi-node jobs
// share it through the environment), random on one node, and empty across
// nodes without one (each node would draw a different one; dist then runs
// unauthenticated and warns).
func (o *Options) token() string {
	if t := os.Getenv(EnvToken); t != "" {
		return t
	}
	if o.NumNodes > 1 {
		return ""
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
