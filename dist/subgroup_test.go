package dist

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// Sub-groups run every collective among their members only, over shared memory, TCP and
// across (simulated) hosts; a non-member's collectives and bad rank lists fail with errors
// that say what was wrong.
func TestSubGroupsRunCollectivesAmongTheirMembersOnly(t *testing.T) {
	for _, c := range []struct {
		n         int
		transport string
		hosts     string // simulated host of each rank; "" for this host
		sub       string // the transport the even ranks' sub-group reports
	}{
		{4, "auto", "", "shm"},
		{4, "tcp", "", "tcp"},
		{5, "auto", "", "shm"},
		{5, "tcp", "", "tcp"},
		{4, "auto", "@a,a,b,b", "tcp"},         // ranks 0 and 2 are on different hosts
		{6, "auto", "@a,a,a,b,b,b", "shm+tcp"}, // evens: 0, 2 on a; 4 on b
	} {
		name := fmt.Sprintf("%dprocs_%s%s", c.n, c.transport, strings.ReplaceAll(c.hosts, ",", ""))
		t.Run(name, func(t *testing.T) {
			env := []string{EnvTransport + "=" + c.transport, EnvTimeout + "=10s"}
			if c.hosts != "" {
				env = append(env, EnvHostID+"="+c.hosts)
			}
			j := start(t, "subgroups", c.n, env...)
			j.waitAllReporting(120 * time.Second)
			if out := j.out[0].String(); !strings.Contains(out, "evens transport="+c.sub+"\n") {
				t.Fatalf("rank 0's sub-group did not use %s:\n%s", c.sub, out)
			}
		})
	}
}

// checkSubGroups is the worker side of TestSubGroupsRunCollectivesAmongTheirMembersOnly.
func checkSubGroups(ctx context.Context, g *Group) error {
	p, rank := g.Size(), g.Rank()
	for _, c := range []struct {
		ranks []int
		want  string
	}{
		{nil, "no ranks given"},
		{[]int{0, p}, fmt.Sprintf("rank %d is outside [0, %d)", p, p)},
		{[]int{-1}, fmt.Sprintf("rank -1 is outside [0, %d)", p)},
		{[]int{1, 0, 1}, "rank 1 is listed twice"},
	} {
		if _, err := g.NewGroup(ctx, c.ranks); err == nil || !strings.Contains(err.Error(), c.want) {
			return fmt.Errorf("NewGroup(%v) = %v, want an error saying %q", c.ranks, err, c.want)
		}
	}
	// Ranks asking for different sub-groups are told so, and the group carries on.
	if _, err := g.NewGroup(ctx, []int{rank}); err == nil || !strings.Contains(err.Error(), "asked for other ranks") {
		return fmt.Errorf("NewGroup with a different list on each rank = %v, want a disagreement error", err)
	}
	var evens, odds []int
	for r := range p {
		if r%2 == 0 {
			evens = append(evens, r)
		} else {
			odds = append(odds, r)
		}
	}
	ev, err := g.NewGroup(ctx, evens)
	if err != nil {
		return err
	}
	od, err := g.NewGroup(ctx, odds)
	if err != nil {
		return err
	}
	mine, other := ev, od
	if rank%2 == 1 {
		mine, other = od, ev
	}
	if rank == 0 {
		fmt.Printf("evens transport=%s\n", ev.Transport())
	}
	if mine.Rank() != rank/2 || mine.Size() != len(evens)-rank%2*(len(evens)-len(odds)) {
		return fmt.Errorf("rank %d in its sub-group: rank %d of %d", rank, mine.Rank(), mine.Size())
	}
	// A non-member's collectives fail naming the sub-group, and leave everything usable.
	err = other.AllReduce(ctx, make([]float32, 3), Sum)
	if other.Rank() != -1 || !errors.Is(err, ErrNotMember) || !strings.Contains(err.Error(), fmt.Sprintf("rank %d is not one of the sub-group's ranks", rank)) {
		return fmt.Errorf("all-reduce on a sub-group without this rank: rank %d, err %v", other.Rank(), err)
	}
	if mine.Size() > 1 {
		// The whole suite, among the members only; evens and odds run at the same time.
		if err := checkCollectives(ctx, mine); err != nil {
			return fmt.Errorf("sub-group %d: %w", rank%2, err)
		}
	}
	// Split by color 0/1 (evens, odds) with the order reversed by key; rank p-1 stays out.
	color := rank % 2
	if rank == p-1 {
		color = -1
	}
	sp, err := g.Split(ctx, color, -rank)
	if err != nil {
		return err
	}
	var want []int64
	for r := p - 1; r >= 0; r-- {
		if r%2 == rank%2 && r != p-1 {
			want = append(want, int64(r))
		}
	}
	if color < 0 {
		if err := sp.Barrier(ctx); !errors.Is(err, ErrNotMember) {
			return fmt.Errorf("barrier of a split this rank stayed out of: %v", err)
		}
	} else {
		got := make([]int64, sp.Size())
		if err := sp.AllGatherInt64(ctx, []int64{int64(rank)}, got); err != nil {
			return err
		}
		if !slices.Equal(got, want) || got[sp.Rank()] != int64(rank) {
			return fmt.Errorf("split(color %d, key %d): members %v, want %v", color, -rank, got, want)
		}
		// A sub-group of a sub-group: its first two members.
		if sp.Size() >= 2 {
			inner, err := sp.NewGroup(ctx, []int{1, 0})
			if err != nil {
				return err
			}
			if inner.Rank() >= 0 {
				x := []float32{float32(rank)}
				if err := inner.AllReduce(ctx, x, Sum); err != nil {
					return err
				}
				if w := float32(want[0] + want[1]); x[0] != w {
					return fmt.Errorf("nested sub-group all-reduce: %v, want %v", x[0], w)
				}
			}
		}
	}
	// The parent group still works, and a closed sub-group says so.
	if err := checkAllReduce(ctx, g, 1000, Sum); err != nil {
		return fmt.Errorf("parent after sub-groups: %w", err)
	}
	if err := mine.Close(); err != nil {
		return err
	}
	if err := mine.Barrier(ctx); !errors.Is(err, ErrClosed) {
		return fmt.Errorf("barrier on a closed sub-group: %v", err)
	}
	return g.Barrier(ctx)
}

// waitAllReporting requires every worker to exit successfully within d, and shows every
// worker's output when one does not (a sub-group's failure often shows on another rank).
func (j *job) waitAllReporting(d time.Duration) {
	j.t.Helper()
	deadline := time.Now().Add(d)
	var failed []string
	for r := range j.cmds {
		if _, ok, err := j.wait(r, time.Until(deadline)); !ok || err != nil {
			failed = append(failed, fmt.Sprintf("rank %d (exited %v: %v)", r, ok, err))
		}
	}
	if failed != nil {
		var all []string
		for r, o := range j.out {
			all = append(all, fmt.Sprintf("rank %d:\n%s", r, o.String()))
		}
		j.t.Fatalf("%s failed:\n%s", strings.Join(failed, ", "), strings.Join(all, "\n"))
	}
}

// Closing a group closes the sub-groups made from it: their collectives fail with ErrClosed.
func TestClosingAGroupClosesItsSubGroups(t *testing.T) {
	ctx := context.Background()
	g, err := Init(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := g.NewGroup(ctx, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	split, err := g.Split(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.Barrier(ctx); err != nil {
		t.Fatalf("barrier before Close: %v", err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Group{"NewGroup": sub, "Split": split} {
		if err := s.Barrier(ctx); !errors.Is(err, ErrClosed) {
			t.Errorf("%s's sub-group after its parent closed: barrier returned %v, want ErrClosed", name, err)
		}
	}
}
