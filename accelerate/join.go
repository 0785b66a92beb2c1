package accelerate

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// JoinUnevenInputs runs fn, a loop over prepared loaders in which processes may get different
// numbers of batches, as Accelerate's join_uneven_inputs (PyTorch's Join context around
// DistributedDataParallel). evenBatches, unless Auto, overrides Config.EvenBatches for the
// loader passes that start inside fn (Off: the last round is left short instead of filled
// from the start of the epoch).
//
// With even batches nothing changes: every process takes the same number of batches. Without,
// a process whose loader ran out "joins": once its fn returns, it shadows the gradient
// all-reduce of every Backward the others still run (it contributes zeros) until every process
// has joined, so that nobody waits in a collective for a peer that has left the loop. As in
// PyTorch (divide_by_initial_world_size), the gradients are still averaged over every process,
// joined ones included. Before each synchronising Backward inside fn the processes all-reduce
// one small flag saying who is still training. Once every process has joined, they all take
// the model parameters of the one that trained longest (DDP's join hook does the same): a
// joined process skipped the optimizer steps of the rounds it shadowed.
//
// Only the gradient all-reduce of the prepared models is shadowed: other collectives inside
// the loop (GatherForMetrics, Reduce, CheckTrigger, WaitForEveryone) must not run on a batch
// that not every process has, as with PyTorch's Join. A prepared model with buffers (BatchNorm's
// running statistics, which every process's forward pass synchronises) is refused with a
// panic naming it. On one process JoinUnevenInputs just runs fn.
func (a *Accelerator) JoinUnevenInputs(evenBatches Toggle, fn func()) {
	if evenBatches < Auto || evenBatches > Off {
		panic(fmt.Sprintf("accelerate: JoinUnevenInputs: evenBatches is %d; use accelerate.Auto, accelerate.On or accelerate.Off", evenBatches))
	}
	if a.c.Size() == 1 {
		fn()
		return
	}
	even := evenBatches.or(a.cfg.evenBatches)
	if evenBatches != Auto {
		restore := make([]bool, len(a.samplers))
		for i, s := range a.samplers {
			restore[i] = s.spec.even
			s.setEven(even)
		}
		defer func() {
			for i, s := range a.samplers[:len(restore)] {
				s.setEven(restore[i])
			}
		}()
	}
	if even {
		fn()
		return
	}
	for i, m := range a.models {
		if len(m.buffers) > 0 {
			panic(fmt.Sprintf("accelerate: JoinUnevenInputs: prepared model %d (%T) has buffers (BatchNorm's running statistics), which every process's forward pass synchronises and a joined process cannot shadow; "+
				"keep EvenBatches on for it, or use a model without batch normalisation", i, m.inner))
		}
	}
	if a.joining {
		panic("accelerate: JoinUnevenInputs inside JoinUnevenInputs")
	}
	a.joining, a.joinRounds = true, 0
	defer func() { a.joining = false }()
	fn()
	// Joined: shadow the others' gradient all-reduces until every process has joined.
	for {
		flag := []float32{0, 0}
		must(a.c.AllReduce(flag, "max"), "JoinUnevenInputs: the joined processes' round")
		if flag[0] == 0 {
			a.syncFinalModels()
			return
		}
		mask := int(flag[1])
		for i, m := range a.models {
			if mask&(1<<i) != 0 && m.red != nil {
				must(m.red.shadow(), "JoinUnevenInputs: shadow the gradient all-reduce")
			}
		}
	}
}

// joinRound is a training process's side of JoinUnevenInputs before a synchronising Backward:
// it tells the joined processes that it still trains and which models' gradients it
// all-reduces (a bit per prepared model, in a.models' order).
func (a *Accelerator) joinRound(armed []*reducer) {
	if !a.joining || len(armed) == 0 {
		return
	}
	if len(a.models) > 24 {
		panic("accelerate: JoinUnevenInputs: more than 24 prepared models")
	}
	mask := 0
	for i, m := range a.models {
		for _, r := range armed {
			if m.red == r {
				mask |= 1 << i
			}
		}
	}
	must(a.c.AllReduce([]float32{1, float32(mask)}, "max"), "JoinUnevenInputs: the training processes' round")
	a.joinRounds++
}

// syncFinalModels gives every process the parameters of the process that trained the most
// rounds (the last to join; the lowest rank among equals), as DDP's join hook does: a joined
// process skipped the optimizer steps of the rounds it shadowed.
func (a *Accelerator) syncFinalModels() {
	rounds := make([]float32, a.c.Size())
	rounds[a.c.Rank()] = float32(a.joinRounds)
	must(a.c.AllReduce(rounds, "max"), "JoinUnevenInputs: count the rounds")
	root := 0
	for r, n := range rounds {
		if n > rounds[root] {
			root = r
		}
	}
	var params []*tensors.Tensor
	for _, m := range a.models {
		params = append(params, m.inner.Parameters()...)
	}
	n := 0
	for _, p := range params {
		n += p.Numel()
	}
	flat := make([]float32, 0, n)
	for _, p := range params {
		flat = append(flat, p.Float32s()...)
	}
	must(a.c.Broadcast(flat, root), "JoinUnevenInputs: broadcast the final parameters")
	tensors.NoGrad(func() {
		off := 0
		for _, p := range params {
			p.CopyFrom(tensors.New(flat[off:off+p.Numel()], p.Shape()...))
			off += p.Numel()
		}
	})
}

// shadow matches one pass of the reducer's all-reduces with zeros: the buckets in the order
// this process sent them in its last pass (the same graph sends them in the same order),
// each through the collective the training processes use for it.
func (r *reducer) shadow() error {
	order := r.sentOrder
	if len(order) == 0 {
		order = r.buckets
	}
	for _, b := range order {
		if b.onDevice() {
			if b.flat == nil {
				b.flat = tensors.Zeros(b.size).To(b.params[0].Device())
			}
			b.flat.Fill(0)
			wait, err := r.c.StartAllReduceTensor(b.flat, "mean")
			if err == nil {
				err = wait()
			}
			if err != nil {
				return err
			}
			continue
		}
		if err := r.c.AllReduceCoalesced([][]float32{make([]float32, b.size)}, "mean"); err != nil {
			return err
		}
	}
	return nil
}

// setEven switches the even-batches rule of the loader's later passes.
func (s *shardSampler) setEven(even bool) {
	s.spec.even = even
	all := batchesOf(identity(s.n), s.spec.batchSize, s.spec.dropLast)
	s.length = len(s.spec.shard(all))
	s.common = s.length
	if !even {
		for r := range s.spec.numProcs {
			spec := s.spec
			spec.rank = r
			s.common = min(s.common, len(spec.shard(all)))
		}
	}
}
