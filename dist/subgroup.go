package dist

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
)

// ErrNotMember is returned by the collectives of a sub-group on a process that is not one of
// its members (the Group NewGroup or Split gave it, as torch.distributed gives
// GroupMember.NON_GROUP_MEMBER).
var ErrNotMember = errors.New("dist: this process is not a member of the sub-group")

// NewGroup makes the sub-group of g's given ranks (torch.distributed.new_group): its collectives
// run among those processes only, over g's connections and transports (shared memory between
// the members on one host, rings over TCP otherwise; a device backend such as NCCL opens a
// communicator of its own for them). Rank i of the sub-group is ranks[i].
//
// Every rank of g must call NewGroup with the same ranks, in the same order relative to g's
// other NewGroup and Split calls and collectives; NewGroup checks that they agree. A process
// not in ranks gets a Group whose Rank is -1 and whose collectives fail with ErrNotMember.
// Collectives of g and of its sub-groups are serialised in this process (they share its
// connections), so every two processes must call the collectives of the groups they share in
// the same order. Closing g closes its sub-groups.
func (g *Group) NewGroup(ctx context.Context, ranks []int) (*Group, error) {
	if err := g.checkRanks(ranks); err != nil {
		return nil, fmt.Errorf("dist: new group %v: %w", ranks, err)
	}
	mine := hashRanks(ranks)
	all := make([]int64, g.Size())
	if err := g.AllGatherInt64(ctx, []int64{mine}, all); err != nil {
		return nil, fmt.Errorf("dist: new group %v: %w", ranks, err)
	}
	for r, h := range all {
		if h != mine {
			return nil, fmt.Errorf("dist: new group %v: rank %d asked for other ranks; every rank of the group must call NewGroup with the same ranks", ranks, r)
		}
	}
	return g.sub(ctx, ranks, "n")
}

// Split partitions g into disjoint sub-groups by color (MPI_Comm_split, ncclCommSplit): the
// ranks that pass the same color form one sub-group, numbered by key and then by their rank in
// g. A negative color leaves this process out of every sub-group (its Group's collectives fail
// with ErrNotMember). Every rank of g must call Split, as with NewGroup.
func (g *Group) Split(ctx context.Context, color, key int) (*Group, error) {
	if g.notMember != nil {
		return nil, fmt.Errorf("dist: split: %w", g.notMember)
	}
	all := make([]int64, 2*g.Size())
	if err := g.AllGatherInt64(ctx, []int64{int64(color), int64(key)}, all); err != nil {
		return nil, fmt.Errorf("dist: split: %w", err)
	}
	var ranks []int
	for r := range g.Size() {
		if all[2*r] == int64(color) && color >= 0 {
			ranks = append(ranks, r)
		}
	}
	slices.SortStableFunc(ranks, func(a, b int) int { return cmp.Compare(all[2*a+1], all[2*b+1]) })
	if color < 0 {
		ranks = nil
	}
	return g.sub(ctx, ranks, "c"+strconv.Itoa(color))
}

// checkRanks reports what is wrong with a list of g's ranks for a sub-group.
func (g *Group) checkRanks(ranks []int) error {
	if g.notMember != nil {
		return g.notMember
	}
	if len(ranks) == 0 {
		return fmt.Errorf("no ranks given; a sub-group needs at least one")
	}
	seen := make(map[int]bool, len(ranks))
	for _, r := range ranks {
		if r < 0 || r >= g.Size() {
			return fmt.Errorf("rank %d is outside [0, %d), the ranks of the group", r, g.Size())
		}
		if seen[r] {
			return fmt.Errorf("rank %d is listed twice", r)
		}
		seen[r] = true
	}
	return nil
}

// hashRanks fingerprints a rank list, so that the ranks can check they asked for the same one.
func hashRanks(ranks []int) int64 {
	h := fnv.New64a()
	for _, r := range ranks {
		h.Write(strconv.AppendInt(nil, int64(r), 10))
		h.Write([]byte{','})
	}
	return int64(h.Sum64())
}

// sub makes the sub-group of g's ranks (empty or without this process: a non-member's Group).
// tag tells apart the store keys of the sub-groups one Split makes at once.
func (g *Group) sub(ctx context.Context, ranks []int, tag string) (*Group, error) {
	root := g.rootGroup()
	// Numbered within g, under g's own scope: sub-groups of disjoint groups opened at the same
	// time get keys of their own.
	n := g.subgroups.Add(1)
	cfg := g.Config()
	cfg.Rank = slices.Index(ranks, g.Rank())
	cfg.WorldSize = len(ranks)
	s := &Group{cfg: cfg, transport: "single", root: root, mesh: root.mesh, backend: single{}}
	if cfg.Rank < 0 {
		s.notMember = fmt.Errorf("rank %d is not one of the sub-group's ranks %v: %w", g.Rank(), ranks, ErrNotMember)
		return s, nil
	}
	s.members = make([]int, len(ranks))
	s.hosts = make([]string, len(ranks))
	for i, r := range ranks {
		s.members[i] = g.meshRank(r)
		if g.hosts != nil {
			s.hosts[i] = g.hosts[r]
		}
	}
	if len(ranks) > 1 {
		open, err := lookupBackend(cfg.Backend)
		if err != nil {
			return nil, err
		}
		s.store = scoped{g.store, "sub" + strconv.FormatInt(n, 10) + tag + "/"}
		rv := &Rendezvous{
			Config: cfg, Store: s.store,
			Hosts: s.hosts, Lost: root.mesh.Ended(), PeerErr: root.mesh.EndErr,
			mesh: root.mesh, members: s.members,
		}
		// Under the root's lock: opening the backend talks over the shared connections.
		err = g.run(ctx, "new-group", func(ctx context.Context) error {
			b, err := open(ctx, rv)
			s.backend = b
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("dist: new group %v: open backend: %w", ranks, err)
		}
		s.transport = cfg.Backend
		if t, ok := s.backend.(interface{ Transport() string }); ok {
			s.transport = t.Transport()
		}
	}
	root.mu.Lock()
	root.children = append(root.children, s)
	root.mu.Unlock()
	return s, nil
}

// rootGroup is the group Init made, whose lock and broken state g shares.
func (g *Group) rootGroup() *Group {
	if g.root == nil {
		return g
	}
	return g.root
}

// meshRank is the rank of the root group (and of its connections) of g's rank r.
func (g *Group) meshRank(r int) int {
	if g.members == nil {
		return r
	}
	return g.members[r]
}

// closeSub closes a sub-group: its backend only, the connections are its root's.
func (g *Group) closeSub() error {
	root := g.root
	root.mu.Lock()
	defer root.mu.Unlock()
	if g.closed {
		return nil
	}
	root.children = slices.DeleteFunc(root.children, func(c *Group) bool { return c == g })
	return g.closeBackend()
}

// closeBackend releases a sub-group's backend (its shared memory, an NCCL communicator);
// the caller holds the root's lock.
func (g *Group) closeBackend() error {
	g.closed = true
	if g.backend == nil {
		return nil
	}
	if err := g.backend.Close(); err != nil {
		return fmt.Errorf("dist: close sub-group: %w", err)
	}
	return nil
}

// scoped is a store whose keys are under a prefix: a group's keys apart from another
// generation's, a sub-group's apart from its parent's.
type scoped struct {
	s      Store
	prefix string
}

func (p scoped) Set(ctx context.Context, key string, value []byte) error {
	return p.s.Set(ctx, p.prefix+key, value)
}

func (p scoped) Get(ctx context.Context, key string) ([]byte, error) {
	return p.s.Get(ctx, p.prefix+key)
}

func (p scoped) Add(ctx context.Context, key string, delta int64) (int64, error) {
	return p.s.Add(ctx, p.prefix+key, delta)
}

func (p scoped) Wait(ctx context.Context, keys ...string) error {
	full := make([]string, len(keys))
	for i, k := range keys {
		full[i] = p.prefix + k
	}
	return p.s.Wait(ctx, full...)
}
