package nn

import (
	"sync"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

// pairGroup is a Group of two processes simulated by two goroutines: AllReduceSum waits for the
// other's call and gives both the sum.
type pairGroup struct {
	mu    sync.Mutex
	cond  *sync.Cond
	vals  [2][]float32
	have  int
	round int
	sum   []float32
}

func newPairGroup() *pairGroup {
	g := &pairGroup{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// rank is one side of the pair.
type rank struct {
	g *pairGroup
	r int
}

func (r rank) Size() int { return 2 }

func (r rank) AllReduceSum(t *tensors.Tensor) {
	g := r.g
	g.mu.Lock()
	round := g.round
	g.vals[r.r] = t.Float32s()
	g.have++
	if g.have == 2 {
		g.sum = make([]float32, len(g.vals[0]))
		for i := range g.sum {
			g.sum[i] = g.vals[0][i] + g.vals[1][i]
		}
		g.have = 0
		g.round++
		g.cond.Broadcast()
	}
	for g.round == round {
		g.cond.Wait()
	}
	sum := g.sum
	g.mu.Unlock()
	t.CopyFrom(tensors.New(sum, t.Shape()...).To(t.Device()))
}

// TestSyncBatchNormOnTwoProcessesMatchesOneBatchNormOnBoth trains one step of a model with a
// converted BatchNorm1d on two "processes" (goroutines, each with half the batch), averaging their
// gradients as data-parallel training does, and compares with one BatchNorm1d over the whole
// batch: outputs, gradients and running statistics agree.
func TestSyncBatchNormOnTwoProcessesMatchesOneBatchNormOnBoth(t *testing.T) {
	tensors.ManualSeed(3)
	build := func() *Sequential {
		return NewSequential(NewLinear(3, 4), NewBatchNorm1d(4), ReLU{}, NewLinear(4, 2))
	}
	ref := build()
	g := tensors.NewGenerator(8)
	x := g.Randn(10, 3).MulScalar(2).AddScalar(0.5)
	y := tensors.FromInt64([]int64{0, 1, 1, 0, 1, 0, 0, 1, 1, 1}, 10)
	// One process with the whole batch; its loss is the mean of the two halves' mean losses.
	out := ref.Forward(x)
	lossRef := CrossEntropy(out.Slice(0, 0, 4), y.Slice(0, 0, 4)).Add(CrossEntropy(out.Slice(0, 4, 10), y.Slice(0, 4, 10))).MulScalar(0.5)
	lossRef.Backward()

	group := newPairGroup()
	replicas := [2]*Sequential{build(), build()}
	for _, m := range replicas {
		if err := LoadStateDict(ConvertSyncBatchNorm(m), StateDict(ref)); err != nil {
			t.Fatal(err)
		}
	}
	// The reference trained a step already: its running statistics moved; start the replicas
	// from the initial ones.
	for _, m := range replicas {
		bn := m.Layers[1].(*BatchNorm1d)
		bn.RunningMean.Fill(0)
		bn.RunningVar.Fill(1)
		bn.NumBatchesTracked.Fill(0)
	}
	halves := [2][2]int{{0, 4}, {4, 10}}
	outs, losses := [2][]float32{}, [2]*tensors.Tensor{}
	// Both forward passes, then both backward passes: a backward pass turns recording off for the
	// whole process (NoGrad is process-wide), so in one process the two cannot overlap.
	both := func(fn func(r int, m *Sequential)) {
		var wg sync.WaitGroup
		for r, m := range replicas {
			wg.Add(1)
			go func() { defer wg.Done(); fn(r, m) }()
		}
		wg.Wait()
	}
	for r, m := range replicas {
		if n := SetSyncGroup(m, rank{group, r}); n != 1 {
			t.Fatalf("SetSyncGroup found %d layers, want the converted BatchNorm1d", n)
		}
	}
	both(func(r int, m *Sequential) {
		lo, hi := halves[r][0], halves[r][1]
		o := m.Forward(x.Slice(0, lo, hi))
		losses[r] = CrossEntropy(o, y.Slice(0, lo, hi))
		outs[r] = o.Float32s()
	})
	both(func(r int, m *Sequential) { losses[r].Backward() })
	closeAll(t, "rank 0 output", outs[0], out.Slice(0, 0, 4).Float32s(), 1e-5, 1e-6)
	closeAll(t, "rank 1 output", outs[1], out.Slice(0, 4, 10).Float32s(), 1e-5, 1e-6)
	for i, p := range ref.NamedParameters() {
		a, b := replicas[0].NamedParameters()[i].Param.Grad(), replicas[1].NamedParameters()[i].Param.Grad()
		avg := a.Add(b).MulScalar(0.5)
		closeAll(t, "averaged grad of "+p.Name, avg.Float32s(), p.Param.Grad().Float32s(), 1e-4, 1e-6)
	}
	for _, m := range replicas {
		for k, v := range NamedBuffersOf(m) {
			closeAll(t, "buffer "+v.Name, v.Param.Float32s(), NamedBuffersOf(ref)[k].Param.Float32s(), 1e-5, 1e-6)
		}
	}
}

// cellNet is a model as a notebook cell writes one: named fields, NamedParameters by hand, no
// NamedBuffers.
type cellNet struct {
	Conv  *Conv2d
	BN    *BatchNorm2d
	Plain *BatchNorm2d // no affine: no parameters to take its name from
	Head  *Sequential
}

func (n *cellNet) Forward(x *tensors.Tensor) *tensors.Tensor {
	return n.Head.Forward(n.Plain.Forward(n.BN.Forward(n.Conv.Forward(x))))
}
func (n *cellNet) Parameters() []*tensors.Tensor { return ParametersOf(n) }
func (n *cellNet) NamedParameters() []NamedParameter {
	ps := Prefixed("conv1", n.Conv)
	ps = append(ps, Prefixed("bn1", n.BN)...)
	return append(ps, Prefixed("head", n.Head)...)
}

// TestBuffersOfACellModelAreNamedAfterItsParameters: a model struct without NamedBuffers gets its
// layers' buffers named with the prefixes of their parameters (or the field name), in its state
// dict, and ConvertSyncBatchNorm and SetSyncGroup reach its layers.
func TestBuffersOfACellModelAreNamedAfterItsParameters(t *testing.T) {
	m := &cellNet{Conv: NewConv2d(1, 2, 3, 1, 1), BN: NewBatchNorm2d(2), Plain: NewBatchNorm2dWith(2, BatchNormConfig{NoAffine: true}),
		Head: NewSequential(Flatten{}, NewLinear(8, 4), NewBatchNorm1d(4))}
	var names []string
	for _, b := range NamedBuffersOf(m) {
		names = append(names, b.Name)
	}
	want := []string{"bn1.running_mean", "bn1.running_var", "bn1.num_batches_tracked",
		"plain.running_mean", "plain.running_var", "plain.num_batches_tracked",
		"head.2.running_mean", "head.2.running_var", "head.2.num_batches_tracked"}
	if len(names) != len(want) {
		t.Fatalf("buffers %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("buffers %v, want %v", names, want)
		}
	}
	sd := StateDict(m)
	if _, ok := sd["head.2.running_var"]; !ok || len(sd) != len(m.NamedParameters())+len(want) {
		t.Fatalf("state dict has %d entries, want the parameters and the buffers", len(sd))
	}
	ConvertSyncBatchNorm(m)
	if n := SetSyncGroup(m, nil); n != 3 {
		t.Fatalf("SetSyncGroup reached %d layers, want 3", n)
	}
	m.Forward(tensors.Randn(2, 1, 2, 2)) // no group: the layers normalise their own batch
	if got := m.BN.NumBatchesTracked.Item(); got != 1 {
		t.Fatalf("num_batches_tracked %v after one training step", got)
	}
}

// TestNLLLossOfLogSoftmaxIsCrossEntropy: F.nll_loss(F.log_softmax(x)) is F.cross_entropy(x), in
// value and gradient; the sum form is N times the mean.
func TestNLLLossOfLogSoftmaxIsCrossEntropy(t *testing.T) {
	g := tensors.NewGenerator(4)
	x1 := g.Randn(6, 5).SetRequiresGrad(true)
	x2 := x1.Detach().Clone().SetRequiresGrad(true)
	y := tensors.FromInt64([]int64{0, 4, 2, 2, 1, 3}, 6)
	a, b := NLLLoss(x1.LogSoftmax(1), y), CrossEntropy(x2, y)
	a.Backward()
	b.Backward()
	closeAll(t, "loss", a.Float32s(), b.Float32s(), 1e-6, 1e-7)
	closeAll(t, "gradient", x1.Grad().Float32s(), x2.Grad().Float32s(), 1e-5, 1e-7)
	closeAll(t, "sum", NLLLossSum(x1.LogSoftmax(1), y).Float32s(), []float32{6 * a.Float32s()[0]}, 1e-6, 1e-6)
}
