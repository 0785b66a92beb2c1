package accelerate

import (
	"fmt"
	"sort"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/tensors"
)

// indexData is a data set whose sample i is the number i.
func indexData(n int) *data.TensorDataset {
	return data.NewTensorDataset(tensors.Arange(0, float64(n), 1).Reshape(n, 1), nil)
}

type gatherCase struct {
	N        int
	Shuffle  bool
	DropLast bool
	Skip     int
	Split    bool // SplitBatches, with the loader's batch 8 × processes (8 per process)
}

func (g gatherCase) name() string {
	return fmt.Sprintf("n%d_shuffle%t_drop%t_skip%d_split%t", g.N, g.Shuffle, g.DropLast, g.Skip, g.Split)
}

// gatherEpoch gathers every batch of one epoch of a prepared loader and returns the samples seen.
// Each batch is gathered alone (GatherForMetrics) and together with two companions, an int64 copy
// and ten times the values (GatherForMetricsAll, as predictions and targets are): the three must
// come back aligned sample by sample, with the same duplicates dropped.
func gatherEpoch(c comm, gc gatherCase) []int {
	acc := newWithComm(withCfg(Config{SplitBatches: gc.Split}), c)
	batch := 8
	if gc.Split {
		batch = 8 * c.Size()
	}
	loader := data.NewLoader(indexData(gc.N), data.LoaderConfig{BatchSize: batch, Shuffle: gc.Shuffle, DropLast: gc.DropLast, Seed: uint64(100 + acc.ProcessIndex())})
	acc.Prepare(&loader)
	if gc.Skip > 0 {
		acc.SkipFirstBatches(loader, gc.Skip)
	}
	var seen []int
	for loader.Next() {
		x, _ := loader.Batch()
		alone := acc.GatherForMetrics(x).Float32s()
		labels := tensors.FromInt64(int64s(x.Float32s()), x.Size(0))
		g := acc.GatherForMetricsAll(x, labels, x.MulScalar(10))
		xs, ls, tens := g[0].Float32s(), g[1].Int64s(), g[2].Float32s()
		if len(xs) != len(alone) || len(ls) != len(xs) || len(tens) != len(xs) || g[1].DType() != tensors.Int64 {
			panic(fmt.Sprintf("%s: GatherForMetricsAll gave %d, %d and %d samples, GatherForMetrics %d", gc.name(), len(xs), len(ls), len(tens), len(alone)))
		}
		for i, v := range xs {
			if v != alone[i] || ls[i] != int64(v) || tens[i] != 10*v {
				panic(fmt.Sprintf("%s: sample %d gathered as %v, %v and %v (alone: %v); not aligned", gc.name(), i, v, ls[i], tens[i], alone[i]))
			}
			seen = append(seen, int(v))
		}
	}
	return seen
}

func int64s(v []float32) []int64 {
	out := make([]int64, len(v))
	for i, f := range v {
		out[i] = int64(f)
	}
	return out
}

// checkGathered verifies that an epoch of GatherForMetrics yields exactly the
// data set (or its full rounds with DropLast), each sample once.
func checkGathered(t *testing.T, procs int, gc gatherCase, seen []int) {
	t.Helper()
	round := 8 * procs
	want := gc.N - gc.Skip*round
	if gc.DropLast {
		want = (gc.N/8/procs)*round - gc.Skip*round
	}
	if len(seen) != want {
		t.Errorf("%d processes, %s: gathered %d samples; want %d", procs, gc.name(), len(seen), want)
	}
	s := append([]int(nil), seen...)
	sort.Ints(s)
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			t.Errorf("%d processes, %s: sample %d gathered twice", procs, gc.name(), s[i])
			break
		}
	}
}

func gatherCases() []gatherCase {
	var cs []gatherCase
	for _, n := range []int{82, 99, 512} {
		for _, sh := range []bool{false, true} {
			for _, dl := range []bool{false, true} {
				cs = append(cs, gatherCase{N: n, Shuffle: sh, DropLast: dl})
			}
		}
		cs = append(cs, gatherCase{N: n, Shuffle: true, Skip: 2}, gatherCase{N: n, Shuffle: true, Split: true},
			gatherCase{N: n, Split: true, Skip: 1})
	}
	return cs
}

func testGatherForMetrics(t *testing.T, procs int) {
	dir := sharedDir(t)
	cases := gatherCases()
	launch(t, procs, func() {
		c := group()
		var all [][]int
		for _, gc := range cases {
			all = append(all, gatherEpoch(c, gc))
		}
		if c.Rank() == 0 {
			writeJSON(resultPath(dir, "gathered"), all)
		}
	})
	var all [][]int
	readJSON(t, resultPath(dir, "gathered"), &all)
	for i, gc := range cases {
		checkGathered(t, procs, gc, all[i])
	}
}

func TestGatherForMetricsYieldsEachSampleOnceOnTwoProcesses(t *testing.T) {
	testGatherForMetrics(t, 2)
}

func TestGatherForMetricsYieldsEachSampleOnceOnThreeProcesses(t *testing.T) {
	testGatherForMetrics(t, 3)
}

// Every process must see the same shuffled order, drawn from rank 0's seed,
// and a new one every epoch, even when their loaders were seeded differently.
func TestShardsPartitionEachEpochWithRankZerosShuffle(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		c := group()
		acc := newWithComm(withCfg(Config{}), c)
		loader := data.NewLoader(indexData(64), data.LoaderConfig{BatchSize: 8, Shuffle: true, Seed: uint64(1000 * (c.Rank() + 1))})
		acc.Prepare(&loader)
		var epochs [][]int
		for e := 0; e < 2; e++ {
			var mine []int
			for loader.Next() {
				mine = append(mine, loader.Indices()...)
			}
			epochs = append(epochs, mine)
		}
		writeJSON(resultPath(dir, fmt.Sprint("shard", c.Rank())), epochs)
	})
	var r0, r1 [][]int
	readJSON(t, resultPath(dir, "shard0"), &r0)
	readJSON(t, resultPath(dir, "shard1"), &r1)
	want := data.SequentialSampler{N: 64, BatchSize: 8, Shuffle: true, Seed: 1000}
	for e := 0; e < 2; e++ {
		order := want.Order(e)
		for b := 0; b < 8; b++ {
			got := r0[e]
			if b%2 == 1 {
				got = r1[e]
			}
			for k := 0; k < 8; k++ {
				if got[(b/2)*8+k] != order[b*8+k] {
					t.Fatalf("epoch %d: global batch %d differs from rank 0's shuffled order", e, b)
				}
			}
		}
	}
	if fmt.Sprint(r0[0]) == fmt.Sprint(r0[1]) {
		t.Error("epoch 1 repeated epoch 0's order; each epoch must reshuffle")
	}
}
