package workers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/goaccel/goaccel/dist"
	"github.com/goaccel/goaccel/internal/workerinfo"
)

// Environment variables of a worker besides the torchrun ones.
const (
	// EnvRestart is the restart count of the group the worker belongs to.
	EnvRestart = "GOACCEL_RESTART_COUNT"
	// EnvToken is the per-job secret the rendezvous store checks.
	EnvToken = "GOACCEL_STORE_TOKEN"
)

// Options are a launch's settings as users give them: notebook_launcher.Options
// (the same type), `goaccel launch`'s flags and `%accelerate launch`'s. The zero
// value runs one worker per visible GPU (one worker on a machine without GPUs)
// on one node.
type Options struct {
	// NumProcesses is the number of workers on this node (0: the visible
	// GPUs, else 1).
	NumProcesses int
	// MixedPrecision is "no", "fp16" or "bf16" ("": the worker's own setting);
	// exported to workers as ACCELERATE_MIXED_PRECISION.
	MixedPrecision string
	// GradientAccumulationSteps is exported to workers as
	// ACCELERATE_GRADIENT_ACCUMULATION_STEPS (0: the worker's own setting).
	GradientAccumulationSteps int
	// CPU makes the workers train on the CPU even where GPUs exist
	// (ACCELERATE_USE_CPU).
	CPU bool
	// FSDP, with Use set, makes the workers' Accelerator shard the models
	// (`--use_fsdp`, distributed_type FSDP): exported as ACCELERATE_USE_FSDP
	// and the FSDP_* variables.
	FSDP FSDPOptions
	// GPUIDs lists the GPUs the workers may use, e.g. "0,1" ("" or "all":
	// every GPU); exported as CUDA_VISIBLE_DEVICES.
	GPUIDs string
	// ThreadsPerProcess is each worker's GOMAXPROCS (0: the machine's cores
	// shared out among the workers, unless GOMAXPROCS is set).
	ThreadsPerProcess int
	// Compile, in a notebook, builds the workers' program with the Go
	// toolchain instead of interpreting it (a compiled program is compiled
	// already and ignores it).
	Compile bool
	// MasterAddr is the rank-0 host ("": 127.0.0.1).
	MasterAddr string
	// Port is the rendezvous port (0: a free port, on one node only).
	Port int
	// NumNodes and NodeRank place this launcher in a multi-node job (0: 1 and 0).
	NumNodes, NodeRank int
	// MaxRestarts is how many times the whole group is restarted after a
	// failure (torchrun's --max_restarts). Every worker is stopped and the
	// group starts again; an Accelerator in the restarted workers resumes
	// from the latest automatic checkpoint (SaveState("") under its
	// ProjectDir), if the training saved one.
	MaxRestarts int
	// Resume makes the workers' Accelerator continue from the latest
	// automatic checkpoint (the one a stop on request saved, or SaveState("")),
	// mid-epoch included; without one the launch fails.
	Resume bool
	// StallThreshold is how long a collective may wait before the launcher
	// reports which ranks have not joined it and where they are (0: a
	// minute; negative: never).
	StallThreshold time.Duration
	// Args are the arguments a re-executed program gets (nil: the launching
	// process's own). Tests pass []string{"-test.run=^" + t.Name() + "$"}.
	Args []string
	// Stdout and Stderr receive the workers' output (nil: os.Stdout, os.Stderr).
	Stdout, Stderr io.Writer
}

// Config is one node's share of a job: the user's Options and what the
// launcher adds. Normalize fills in the defaults.
type Config struct {
	Options
	// Env is added to every worker's environment, last (so it wins).
	Env []string
	// Grace is how long workers get to stop after an interrupt or a failure
	// before they are killed (0: 3 s).
	Grace time.Duration
	// Frame, when set, receives the frames workers write to stdout
	// (WriteFrame) instead of printing them.
	Frame func(rank int, payload []byte)
	// Started, when set, is called with the workers' pids once they run.
	Started func(pids []int)
	// Control, when set, lets the caller interrupt the launch gracefully
	// (Control.Interrupt); Run makes one otherwise.
	Control *Control
	// Status, when set, receives the status of every rank a few times a
	// second while it changes, and once more at the end.
	Status func(GroupStatus)
	// Stall, when set, receives a collective that waited longer than
	// StallThreshold (nil: the report is written to Stderr, Places maps
	// its positions).
	Stall  func(Stall)
	Places Places
}

// Normalize applies the defaults and reports the first invalid field, named
// as notebook_launcher.Options names it.
func (c *Config) Normalize() error {
	if c.NumProcesses == 0 {
		c.NumProcesses = max(1, VisibleGPUs())
	}
	if c.NumNodes == 0 {
		c.NumNodes = 1
	}
	if c.MasterAddr == "" {
		c.MasterAddr = "127.0.0.1"
	}
	switch {
	case c.NumProcesses < 0:
		return fmt.Errorf("NumProcesses is %d; use a positive number of workers per node", c.NumProcesses)
	case c.NumNodes < 0:
		return fmt.Errorf("NumNodes is %d; use a positive number of nodes", c.NumNodes)
	case c.NodeRank < 0 || c.NodeRank >= c.NumNodes:
		return fmt.Errorf("NodeRank is %d; it must be in [0, %d) for NumNodes=%d", c.NodeRank, c.NumNodes, c.NumNodes)
	case c.MaxRestarts < 0:
		return fmt.Errorf("MaxRestarts is %d; use 0 or more", c.MaxRestarts)
	case c.NumNodes > 1 && c.Port == 0:
		return errors.New("option Port must be set when NumNodes > 1 (every node must agree on it)")
	case c.ThreadsPerProcess < 0:
		return fmt.Errorf("ThreadsPerProcess is %d; use 1 or more (0: cores / workers)", c.ThreadsPerProcess)
	case c.GradientAccumulationSteps < 0:
		return fmt.Errorf("GradientAccumulationSteps is %d; use 1 or more (0: the worker's own setting)", c.GradientAccumulationSteps)
	}
	switch c.MixedPrecision {
	case "", "no", "fp16", "bf16":
	default:
		return fmt.Errorf("MixedPrecision is %q; use \"no\", \"fp16\" or \"bf16\"", c.MixedPrecision)
	}
	return nil
}

// Run starts c.NumProcesses copies of the program at path with args and
// waits for them; after a failure it restarts the whole group up to
// c.MaxRestarts times, saying why on c.Stderr. c must be normalized.
// Cancelling ctx stops every worker (the error wraps ErrInterrupted);
// c.Control (or a signal through InterruptOnSignals) can also ask them to
// save and stop (the error is then a *StoppedError).
func Run(ctx context.Context, path string, args []string, c Config) error {
	ctl := c.Control
	if ctl == nil {
		ctl = &Control{}
	}
	ctx, kill := context.WithCancelCause(ctx)
	defer kill(nil)
	m := newMonitor(c)
	if c.Stall == nil && m.threshold > 0 {
		out, places := stderr(c), c.Places
		m.onStall = func(s Stall) { fmt.Fprint(out, s.Text(places)) }
	}
	ctl.attach(m, kill, stderr(c))
	defer ctl.detach()
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		m.watch(done)
		close(watched)
	}()
	defer func() {
		close(done)
		<-watched
	}()
	var err error
	for attempt := 0; ; attempt++ {
		err = runOnce(ctx, path, args, c, attempt, m)
		if dir := m.stoppedAt(); dir != "" && (err == nil || ctl.stopAsked()) {
			_, step := m.lastCheckpoint()
			return &StoppedError{Checkpoint: dir, Step: step}
		}
		if err == nil || errors.Is(err, ErrInterrupted) || ctx.Err() != nil || ctl.stopAsked() {
			return err
		}
		if attempt == c.MaxRestarts {
			break
		}
		from := "from the beginning (no checkpoint was saved yet)"
		if dir, step := m.lastCheckpoint(); dir != "" {
			from = fmt.Sprintf("from %s (saved after %d optimizer steps)", dir, step)
		}
		fmt.Fprintf(stderr(c), "goaccel: %v\ngoaccel: restart %d of %d: every worker was stopped; the group starts again and resumes %s\n",
			err, attempt+1, c.MaxRestarts, from)
	}
	if c.MaxRestarts > 0 {
		return fmt.Errorf("gave up after %d restarts: %w", c.MaxRestarts, err)
	}
	return err
}

func runOnce(ctx context.Context, path string, args []string, c Config, attempt int, m *monitor) error {
	token := Token(c.NumNodes)
	port := c.Port
	var extraStore []string
	if port == 0 {
		// One node, any port: this launcher hosts the rendezvous store itself
		// on a port the kernel picks (no race for a "free" port) and it
		// outlives the workers, so it can tell which one vanished first.
		srv, err := dist.ServeStore(net.JoinHostPort(c.MasterAddr, "0"), token)
		if err != nil {
			return fmt.Errorf("host the rendezvous store: %w", err)
		}
		defer srv.Close()
		_, p, _ := net.SplitHostPort(srv.Addr())
		port, _ = strconv.Atoi(p)
		extraStore = []string{dist.EnvStoreAddr + "=" + srv.Addr()}
	}
	world := c.NumProcesses * c.NumNodes
	rank := func(local int) int { return c.NodeRank*c.NumProcesses + local }
	env := func(local int) []string {
		e := []string{
			"RANK=" + strconv.Itoa(rank(local)),
			"WORLD_SIZE=" + strconv.Itoa(world),
			"LOCAL_RANK=" + strconv.Itoa(local),
			"LOCAL_WORLD_SIZE=" + strconv.Itoa(c.NumProcesses),
			"GROUP_RANK=" + strconv.Itoa(c.NodeRank),
			"MASTER_ADDR=" + c.MasterAddr,
			"MASTER_PORT=" + strconv.Itoa(port),
			EnvRestart + "=" + strconv.Itoa(attempt),
		}
		switch {
		case attempt > 0:
			e = append(e, workerinfo.EnvResume+"="+workerinfo.ResumeRestart)
		case c.Resume:
			e = append(e, workerinfo.EnvResume+"="+workerinfo.ResumeLatest)
		}
		if token != "" {
			e = append(e, EnvToken+"="+token)
		}
		if c.MixedPrecision != "" {
			e = append(e, "ACCELERATE_MIXED_PRECISION="+c.MixedPrecision)
		}
		if c.GradientAccumulationSteps > 0 {
			e = append(e, "ACCELERATE_GRADIENT_ACCUMULATION_STEPS="+strconv.Itoa(c.GradientAccumulationSteps))
		}
		e = append(e, c.FSDP.env()...)
		if c.CPU {
			e = append(e, "ACCELERATE_USE_CPU=true")
		} else if c.GPUIDs != "" && c.GPUIDs != "all" {
			e = append(e, "CUDA_VISIBLE_DEVICES="+c.GPUIDs)
		}
		if c.ThreadsPerProcess > 0 {
			e = append(e, "GOMAXPROCS="+strconv.Itoa(c.ThreadsPerProcess))
		} else if _, set := os.LookupEnv("GOMAXPROCS"); !set && c.NumProcesses > 1 {
			// Share the cores among the workers, as torchrun does with OMP_NUM_THREADS.
			e = append(e, "GOMAXPROCS="+strconv.Itoa(max(1, runtime.NumCPU()/c.NumProcesses)))
		}
		e = append(e, extraStore...)
		return append(e, c.Env...) // last, so the caller's values win (os/exec keeps the last duplicate)
	}
	m.begin(attempt, c.NumProcesses, rank)
	err := RunGroup(ctx, GroupSpec{
		Path: path, Args: args, NumProcs: c.NumProcesses,
		Env: env, Rank: rank, Stdout: c.Stdout, Stderr: c.Stderr,
		Grace: c.Grace, Frame: c.Frame, Started: c.Started,
		Pipes: m.attach, Exited: m.exited,
	})
	m.drain(2 * time.Second) // the last status lines (a stop's checkpoint) first
	return err
}

func stderr(c Config) io.Writer {
	if c.Stderr != nil {
		return c.Stderr
	}
	return os.Stderr
}

// Token is a job's rendezvous secret: inherited when set (multi-node jobs
// share it through the environment), random on one node, and empty across
// nodes without one (each node would draw a different one; dist then runs
// unauthenticated and warns).
func Token(nodes int) string {
	if t := os.Getenv(EnvToken); t != "" {
		return t
	}
	if nodes > 1 {
		return ""
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
