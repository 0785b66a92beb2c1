package dist

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultTimeout bounds every collective unless Config.Timeout says otherwise
// (torch.distributed's default too).
const DefaultTimeout = 30 * time.Minute

// Environment variables beyond torchrun's that configure a group.
const (
	// EnvStoreAddr points every rank at a store a launcher hosts (see ServeStore)
	// instead of one rank 0 hosts at MASTER_ADDR:MASTER_PORT.
	EnvStoreAddr = "GOACCEL_STORE_ADDR"
	// EnvStoreToken is the per-job secret the store and peer connections check.
	EnvStoreToken = "GOACCEL_STORE_TOKEN"
	// EnvBackend names the collective backend ("cpu" unless a GPU backend is registered and chosen).
	EnvBackend = "GOACCEL_DIST_BACKEND"
	// EnvTransport forces the CPU backend's transport: "auto", "shm" or "tcp".
	EnvTransport = "GOACCEL_DIST_TRANSPORT"
	// EnvHostID overrides this process's host identity (hostname and boot
	// id): ranks with equal identities share memory. Tests use it to stand
	// in for several hosts on one.
	EnvHostID = "GOACCEL_DIST_HOST_ID"
	// EnvTimeout overrides the collective timeout (a Go duration such as "90s").
	EnvTimeout = "GOACCEL_DIST_TIMEOUT"
)

// Config describes this process's place in a job. FromEnv fills it from a
// launcher's environment; tests and launchers may build one directly.
type Config struct {
	Rank, WorldSize           int
	LocalRank, LocalWorldSize int
	// MasterAddr and MasterPort locate the rendezvous store rank 0 hosts.
	MasterAddr string
	MasterPort int
	// StoreAddr, when set, is a store hosted elsewhere (a launcher); rank 0 then hosts none.
	StoreAddr string
	// Token is the job's secret. Empty on one host: rank 0 makes one and
	// shares it through a file only this user can read. Empty across hosts:
	// the store is unauthenticated (a warning says so).
	Token string
	// Backend is the registered backend to use ("" means "cpu").
	Backend string
	// Transport is the CPU backend's transport: "auto" (shared memory
	// between the ranks of a host, TCP between hosts), "shm" (one host only)
	// or "tcp" (TCP even on one host).
	Transport string
	// Timeout bounds every collective (0 means DefaultTimeout) and, with a
	// two-minute floor, the rendezvous in Init.
	Timeout time.Duration
	// Source names where the values came from: "torchrun", "openmpi", "slurm" or "single".
	Source string
}

// FromEnv reads the torchrun/Accelerate environment (RANK, WORLD_SIZE,
// LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT), falling back to
// Open MPI's OMPI_COMM_WORLD_* and then Slurm's SLURM_PROCID/SLURM_NTASKS/
// SLURM_LOCALID when RANK is absent. With none of them it describes a single
// process, whose group's collectives are identity operations.
func FromEnv() (Config, error) { return fromEnv(os.LookupEnv) }

type lookupFunc func(string) (string, bool)

func fromEnv(env lookupFunc) (Config, error) {
	c := Config{Rank: 0, WorldSize: 1, LocalRank: 0, LocalWorldSize: 1, Source: "single"}
	var err error
	switch {
	case has(env, "RANK"):
		err = c.readLauncher(env, "torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE")
	case has(env, "OMPI_COMM_WORLD_RANK"):
		err = c.readLauncher(env, "openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE")
	case has(env, "SLURM_PROCID"):
		err = c.readSlurm(env)
	case has(env, "WORLD_SIZE"):
		ws, _ := env("WORLD_SIZE")
		if strings.TrimSpace(ws) != "1" {
			return c, fmt.Errorf("dist: WORLD_SIZE=%s is set but RANK is not; set RANK (0..WORLD_SIZE-1) for every process, or unset WORLD_SIZE to run one process", ws)
		}
	}
	if err != nil {
		return c, err
	}
	if err := c.readRest(env); err != nil {
		return c, err
	}
	return c, c.validate()
}

func has(env lookupFunc, k string) bool { _, ok := env(k); return ok }

// intVar parses variable k; def is used when it is absent (def < 0: required).
func intVar(env lookupFunc, source, k string, def int) (int, error) {
	v, ok := env(k)
	if !ok || strings.TrimSpace(v) == "" {
		if def < 0 {
			return 0, fmt.Errorf("dist: %s is missing (%s environment); the launcher must set it", k, source)
		}
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("dist: %s=%q is not an integer (%s environment)", k, v, source)
	}
	return n, nil
}

func (c *Config) readLauncher(env lookupFunc, source, rank, size, local, localSize string) error {
	c.Source = source
	var err error
	if c.Rank, err = intVar(env, source, rank, -1); err != nil {
		return err
	}
	if c.WorldSize, err = intVar(env, source, size, -1); err != nil {
		return err
	}
	if c.LocalWorldSize, err = intVar(env, source, localSize, c.WorldSize); err != nil {
		return err
	}
	def := c.Rank
	if c.LocalWorldSize > 0 {
		def = c.Rank % c.LocalWorldSize
	}
	c.LocalRank, err = intVar(env, source, local, max(def, 0)) // a negative rank is reported by validate

	return err
}

func (c *Config) readSlurm(env lookupFunc) error {
	if err := c.readLauncher(env, "slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"); err != nil {
		return err
	}
	if has(env, "SLURM_NTASKS_PER_NODE") {
		return nil
	}
	// SLURM_TASKS_PER_NODE looks like "4(x2),3"; this node's count is not
	// named, so take the first group's when the job is uniform, else the
	// task count divided by the node count.
	if v, ok := env("SLURM_TASKS_PER_NODE"); ok {
		first := strings.SplitN(v, ",", 2)[0]
		if n, err := strconv.Atoi(strings.SplitN(first, "(", 2)[0]); err == nil && !strings.Contains(v, ",") {
			c.LocalWorldSize = n
			return nil
		}
	}
	if nodes, err := intVar(env, "slurm", "SLURM_NNODES", 1); err == nil && nodes > 0 && c.WorldSize%nodes == 0 {
		c.LocalWorldSize = c.WorldSize / nodes
	}
	return nil
}

func (c *Config) readRest(env lookupFunc) error {
	c.MasterAddr = "127.0.0.1"
	if v, ok := env("MASTER_ADDR"); ok && strings.TrimSpace(v) != "" {
		c.MasterAddr = strings.TrimSpace(v)
	}
	var err error
	if c.MasterPort, err = intVar(env, c.Source, "MASTER_PORT", 29500); err != nil {
		return err
	}
	c.StoreAddr, _ = env(EnvStoreAddr)
	c.Token, _ = env(EnvStoreToken)
	c.Backend, _ = env(EnvBackend)
	c.Transport, _ = env(EnvTransport)
	if v, ok := env(EnvTimeout); ok && v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("dist: %s=%q is not a positive duration (for example \"90s\" or \"30m\")", EnvTimeout, v)
		}
		c.Timeout = d
	}
	if c.WorldSize > c.LocalWorldSize && c.StoreAddr == "" && !has(env, "MASTER_ADDR") {
		return fmt.Errorf("dist: the job spans hosts (WORLD_SIZE=%d, LOCAL_WORLD_SIZE=%d) but MASTER_ADDR is not set; set it to rank 0's host address", c.WorldSize, c.LocalWorldSize)
	}
	return nil
}

func (c Config) validate() error {
	switch {
	case c.WorldSize < 1:
		return fmt.Errorf("dist: world size is %d (%s environment); it must be at least 1", c.WorldSize, c.Source)
	case c.Rank < 0 || c.Rank >= c.WorldSize:
		return fmt.Errorf("dist: rank %d is outside [0, %d) (%s environment); each process needs a distinct rank below the world size", c.Rank, c.WorldSize, c.Source)
	case c.LocalWorldSize < 1 || c.LocalWorldSize > c.WorldSize:
		return fmt.Errorf("dist: local world size %d must be in [1, %d] (%s environment)", c.LocalWorldSize, c.WorldSize, c.Source)
	case c.LocalRank < 0 || c.LocalRank >= c.LocalWorldSize:
		return fmt.Errorf("dist: local rank %d is outside [0, %d) (%s environment)", c.LocalRank, c.LocalWorldSize, c.Source)
	case c.MasterPort < 0 || c.MasterPort > 65535:
		return fmt.Errorf("dist: MASTER_PORT %d is not a TCP port (0-65535)", c.MasterPort)
	case c.Timeout < 0:
		return fmt.Errorf("dist: timeout %v is negative", c.Timeout)
	}
	switch c.Transport {
	case "", "auto", "shm", "tcp":
	default:
		return fmt.Errorf("dist: transport %q is unknown; use \"auto\", \"shm\" or \"tcp\"", c.Transport)
	}
	return nil
}

func (c Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}
