package dist

import (
	"context"
	"errors"
	"fmt"
	"github.com/goaccel/goaccel/internal/profiling"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goaccel/goaccel/dist/internal/mesh"
	"github.com/goaccel/goaccel/dist/internal/store"
	"github.com/goaccel/goaccel/internal/host"
)

// Group is this process's membership in a process group. Every rank must
// call the same collectives in the same order with the same sizes. A Group
// is safe for concurrent use: collectives are serialised in call order, so
// callers on different goroutines must agree on that order across ranks.
// After a collective fails (a peer lost, a timeout) the group is broken and
// every later collective returns the same error.
type Group struct {
	cfg       Config
	backend   Backend
	transport string
	hosts     []string

	server    *store.Server
	client    *store.Client
	store     Store
	mesh      *mesh.Mesh
	tokenPath string

	mu      sync.Mutex
	broken  error
	closed  bool
	closing atomic.Bool
	timeout atomic.Int64 // bound of each collective, as a time.Duration; 0 until SetTimeout

	// Sub-groups (subgroup.go). root is the group Init made: its lock orders every collective
	// of this process on the shared connections, and its broken state covers every sub-group.
	root      *Group
	members   []int        // mesh rank of each of this group's ranks; nil: rank r is mesh rank r
	notMember error        // set on the Group a non-member gets from NewGroup or Split
	subgroups atomic.Int64 // sub-groups made from this group, which number their store keys
	children  []*Group     // sub-groups made from this root, closed with it
}

// Rank is this process's rank in [0, Size()); -1 on a sub-group this process is not a member of.
func (g *Group) Rank() int { return g.cfg.Rank }

// Size is the number of processes in the group.
func (g *Group) Size() int { return g.cfg.WorldSize }

// LocalRank is this process's rank among the group's processes on its host (on a sub-group,
// among its root group's: it picks the process's device).
func (g *Group) LocalRank() int { return g.cfg.LocalRank }

// LocalSize is the number of the group's processes on this host (on a sub-group, of its root
// group's).
func (g *Group) LocalSize() int { return g.cfg.LocalWorldSize }

// Config is the configuration the group was made with (Timeout as SetTimeout last set it).
func (g *Group) Config() Config {
	c := g.cfg
	if d := g.timeout.Load(); d > 0 {
		c.Timeout = time.Duration(d)
	}
	return c
}

// SetTimeout changes the bound of every later collective (0 restores the one the group was made
// with: Config.Timeout, GOACCEL_DIST_TIMEOUT or DefaultTimeout). A collective in progress keeps
// its bound.
func (g *Group) SetTimeout(d time.Duration) {
	if d < 0 {
		d = 0
	}
	g.timeout.Store(int64(d))
}

// collectiveTimeout is the bound of one collective.
func (g *Group) collectiveTimeout() time.Duration {
	if d := g.timeout.Load(); d > 0 {
		return time.Duration(d)
	}
	return g.cfg.timeout()
}

// Transport names how all-reduce travels: "shm", "tcp", "single" (one
// process) or the backend's name.
func (g *Group) Transport() string { return g.transport }

// run executes one collective under the group's lock and timeout, and turns
// failures into the group's sticky error.
func (g *Group) run(ctx context.Context, name string, f func(ctx context.Context) error) error {
	return g.runBytes(ctx, name, 0, f)
}

// runBytes is run for a collective of n bytes per rank: a profile in progress
// (accelerate.Profile) records it with its size and the time it queued behind another
// collective of this process.
func (g *Group) runBytes(ctx context.Context, name string, n int, f func(ctx context.Context) error) error {
	if g.notMember != nil {
		return fmt.Errorf("dist: %s: %w", name, g.notMember)
	}
	root := g.rootGroup()
	if r := profiling.Active(); r != nil {
		queued := time.Now()
		span := r.Start(profiling.CatCollective, name, profiling.Args{Bytes: int64(n)})
		root.mu.Lock()
		lockWait := time.Since(queued)
		defer span.EndWaited(lockWait)
	} else {
		root.mu.Lock()
	}
	defer root.mu.Unlock()
	if g.closed || g.closing.Load() || root.closed || root.closing.Load() {
		return fmt.Errorf("dist: %s: %w", name, ErrClosed)
	}
	if root.broken != nil {
		return fmt.Errorf("dist: %s: group unusable after an earlier failure: %w", name, root.broken)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("dist: %s: %w", name, err)
	}
	limit := g.collectiveTimeout()
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	// The launcher's status table and its report of a collective that some
	// ranks never joined come from this record.
	c := host.Current().Worker.EnterCollective(name)
	err := f(ctx)
	c.Leave()
	if err == nil {
		return nil
	}
	if errors.Is(err, mesh.ErrClosed) {
		return fmt.Errorf("dist: %s on rank %d: %w", name, g.cfg.Rank, ErrClosed)
	}
	if g.mesh != nil {
		// The peers learn which rank was lost from this one before the
		// caller, which may exit on the error, gets it.
		g.mesh.WaitNotices()
	}
	err = peerLost(err)
	if errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ErrPeerLost) {
		err = fmt.Errorf("timed out after %v (raise it with dist.Config.Timeout, accelerate.Config.InitProcessGroup.Timeout or %s): %w", limit, EnvTimeout, err)
	}
	err = fmt.Errorf("dist: %s on rank %d: %w", name, g.cfg.Rank, err)
	if g.mesh != nil {
		// A half-done collective leaves the peers out of step on connections every
		// sub-group shares: stop here.
		root.broken = err
	}
	return err
}

// Close leaves the group: it tells the peers, releases shared memory and, on
// the rank hosting it, stops the rendezvous store. Peers still waiting in a
// collective fail with ErrPeerLost. Close is idempotent.
func (g *Group) Close() error {
	if g.closing.Swap(true) {
		return nil
	}
	if g.root != nil && g.root != g {
		return g.closeSub()
	}
	var errs []error
	if g.mesh != nil {
		// First, so that a collective still waiting on another goroutine
		// ends (with ErrClosed) and releases the lock.
		errs = append(errs, g.mesh.Close())
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for _, c := range g.children {
		if !c.closing.Swap(true) {
			errs = append(errs, c.closeBackend())
		}
	}
	if g.backend != nil {
		errs = append(errs, g.backend.Close())
	}
	if g.client != nil {
		errs = append(errs, g.client.Close())
	}
	if g.server != nil {
		errs = append(errs, g.server.Close())
	}
	if g.tokenPath != "" {
		os.Remove(g.tokenPath)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("dist: close: %w", err)
	}
	return nil
}
