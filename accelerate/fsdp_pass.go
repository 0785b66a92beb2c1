package accelerate

import (
	"errors"
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors"
)

// inPass runs fn as a pass every process runs together: the parameters it uses are gathered.
func (s *sharder) inPass(fn func()) {
	s.passes++
	defer func() { s.passes-- }()
	fn()
}

// onUse brings an evicted parameter back for the op about to use it: its unit is gathered from
// every process's shards. Outside a pass the other processes are not there to send theirs.
func (s *sharder) onUse(p *tensors.Tensor) {
	if s.passes == 0 {
		panic(fmt.Sprintf("accelerate: FSDP: a parameter %v of unit %s was used outside the prepared model's Forward and "+
			"Accelerator.Backward; each process holds only its shard of it. Run the model through its prepared Forward, "+
			"call acc.Backward(loss) rather than loss.Backward(), and read the whole model with acc.GetStateDict, "+
			"acc.UnwrapModel or acc.SaveModel, called on every process", p.Shape(), s.unitOf[p].name))
	}
	s.gather(s.unitOf[p])
}

// gather all-gathers u's parameters (or takes its prefetched all-gather), first freeing the
// unit gathered longest ago when the window is full.
func (s *sharder) gather(u *fsdpUnit) {
	if u.resident {
		return
	}
	for s.window > 0 && s.residents() >= s.window {
		var old *fsdpUnit
		for _, v := range s.units {
			if v.resident && (old == nil || v.gathered < old.gathered) {
				old = v
			}
		}
		s.evict(old)
	}
	if !s.gatherOnDevice(u) {
		s.gatherOnHost(u)
	}
	s.clock++
	u.resident, u.gathered = true, s.clock
	s.notePeak()
	s.gathered(u)
}

// gatherOnHost all-gathers u's shards through host memory within the shard group (or takes the
// all-gather prefetched for it) and gives its parameters their elements back.
func (s *sharder) gatherOnHost(u *fsdpUnit) {
	var recv []float32
	if s.ahead != nil && s.ahead.u == u {
		s.ahead.op.wait()
		recv, s.ahead = s.ahead.recv, nil
		s.prefetchHits++
	} else {
		var op *collective
		recv, op = s.startAllGather(u)
		op.wait()
	}
	recv = s.unpackGathered(recv, u.size)
	for i, q := range u.params {
		n, per := q.Numel(), u.shards[i].Numel()
		full := make([]float32, s.group*per)
		for j := 0; j < s.group; j++ {
			from := j*u.size + u.offsets[i]
			copy(full[j*per:], recv[from:from+per])
		}
		q.Unevict(tensors.New(full[:n], q.Shape()...))
	}
}

// notePeak updates peakWhole (a prefetched unit's whole parameters count from the start of
// its all-gather).
func (s *sharder) notePeak() {
	n := s.aheadBytes()
	for _, u := range s.units {
		for _, q := range u.params {
			if u.resident {
				n += 4 * int64(q.Numel())
			}
			if q.GradRef() != nil {
				n += 4 * int64(q.Numel())
			}
		}
	}
	s.peakWhole = max(s.peakWhole, n)
}

func (s *sharder) residents() int {
	n := 0
	for _, u := range s.units {
		if u.resident {
			n++
		}
	}
	return n
}

// evict frees u's gathered parameters.
func (s *sharder) evict(u *fsdpUnit) {
	if !u.resident {
		return
	}
	for _, q := range u.params {
		q.Evict(s.onUse)
	}
	u.resident = false
}

// evictAll frees every gathered unit.
func (s *sharder) evictAll() {
	for _, u := range s.units {
		s.evict(u)
	}
}

// forward runs a forward pass of the model: gathered units are freed after it, except under
// SHARD_GRAD_OP in training, whose backward pass uses them again.
func (s *sharder) forward(training bool, fn func()) {
	if s.passes == 0 {
		s.beginOrder(forwardPass)
		defer s.endOrder()
	}
	s.inPass(fn)
	if s.strategy != ShardGradOp || !training {
		s.evictAll()
	}
}

// beginBackward arms the gradient hooks; sync says whether the gradients are reduce-scattered
// (on steps that do not sync they add up, whole, on each process).
func (s *sharder) beginBackward(sync bool) {
	s.backward, s.armed = true, sync
	s.passes++
	s.beginOrder(backwardPass)
	for _, u := range s.units {
		u.pending = len(u.params)
	}
}

// ready is the gradient-ready hook: once every gradient of a unit is final it is
// reduce-scattered and the unit freed.
func (s *sharder) ready(p *tensors.Tensor) {
	if !s.backward {
		return
	}
	u := s.unitOf[p]
	if u.pending--; u.pending == 0 {
		s.unitDone(u)
	}
}

func (s *sharder) unitDone(u *fsdpUnit) {
	s.notePeak()
	if s.armed {
		s.reduceScatter(u)
	}
	s.evict(u)
	if s.backwardPrefetch == BackwardPost && s.kind == backwardPass {
		s.prefetchNext()
	}
}

// finishBackward reduce-scatters the units some of whose parameters got no gradient (zeros for
// those, as DDP's all-reduce sends) and frees every unit.
func (s *sharder) finishBackward() {
	defer func() {
		s.backward = false
		s.passes--
	}()
	for _, u := range s.units {
		if u.pending > 0 {
			u.pending = 0
			s.unitDone(u)
		}
	}
	s.finishScatters()
	s.endOrder()
	s.evictAll()
}

// endBackward undoes beginBackward after a backward pass that panicked.
func (s *sharder) endBackward() {
	if s.backward {
		s.backward = false
		s.passes--
		s.dropInFlight()
	}
}

// reduceScatter starts averaging u's gradients across processes, which leaves each process the
// part of the average its shards cover (added to their gradients by finishScatters, while the
// backward pass goes on), and drops the whole gradients. Under HYBRID_SHARD, as PyTorch's, the
// reduce-scatter runs within the shard group and an all-reduce of its result across the
// replica group finishes the average: every copy of a shard gets the same sums, so the copies
// never drift apart.
func (s *sharder) reduceScatter(u *fsdpUnit) {
	if s.reduceScatterOnDevice(u) {
		return
	}
	send := make([]float32, s.group*u.size)
	for i, q := range u.params {
		g := q.GradRef()
		if g == nil {
			continue
		}
		vals := g.Float32s()
		per := u.shards[i].Numel()
		for r := 0; r < s.group; r++ {
			if lo := r * per; lo < len(vals) {
				copy(send[r*u.size+u.offsets[i]:], vals[lo:min(lo+per, len(vals))])
			}
		}
		q.ZeroGrad()
	}
	recv := make([]float32, u.size)
	op := s.start("FSDP: reduce-scatter the gradients of unit "+u.name, func() error {
		if err := s.shard.ReduceScatter(send, recv, "mean"); err != nil {
			return err
		}
		if s.replica != nil && s.replica.Size() > 1 {
			if err := s.replica.AllReduceCoalesced([][]float32{recv}, "mean"); err != nil {
				return fmt.Errorf("HYBRID_SHARD: all-reduce the gradient shards across the replica group: %w", err)
			}
		}
		return nil
	})
	s.scatters = append(s.scatters, scatter{u: u, recv: recv, op: op})
}

// addShardGrads adds recv, the unit's flat shard of the averaged gradients, to the shards'
// gradients.
func (s *sharder) addShardGrads(u *fsdpUnit, recv []float32) {
	for i, sh := range u.shards {
		vals := recv[u.offsets[i] : u.offsets[i]+sh.Numel()]
		if old := sh.GradRef(); old != nil {
			prev := old.Float32s()
			for k := range vals {
				vals[k] += prev[k]
			}
		}
		sh.SetGrad(tensors.New(vals, len(vals)).To(sh.Device()))
	}
}

// shards maps params to the tensors that hold their gradients: a sharded parameter's shard,
// any other parameter itself.
func (s *sharder) shards(params []*tensors.Tensor) (sharded, other []*tensors.Tensor) {
	for _, p := range params {
		if sh, ok := s.shardOf[p]; ok {
			sharded = append(sharded, sh)
		} else {
			other = append(other, p)
		}
	}
	return sharded, other
}

// gradNormSquares returns the sum of the squares of the gradients of the shards, over every
// process (each shard counted once, HYBRID_SHARD's copies too).
func (s *sharder) gradNormSquares(shards []*tensors.Tensor) float64 {
	grads := make([]*tensors.Tensor, 0, len(shards))
	for _, sh := range shards {
		if g := sh.GradRef(); g != nil {
			grads = append(grads, g)
		}
	}
	// Split in two float32s so the all-reduce keeps most of float64's precision.
	s.settle()
	local := tensors.SumSquares(grads)
	hi := float32(local)
	buf := []float32{hi, float32(local - float64(hi))}
	// Over the shard group: every shard once (HYBRID_SHARD's other groups hold the same shards).
	must(s.shard.AllReduce(buf, "sum"), "FSDP: ClipGradNorm: sum the squared gradient norms across processes")
	return float64(buf[0]) + float64(buf[1])
}

// clipGradNorm is ClipGradNorm over sharded gradients: the norm of the whole gradient, the same
// scale applied to every shard.
func (s *sharder) clipGradNorm(shards []*tensors.Tensor, maxNorm float64) float64 {
	norm := math.Sqrt(s.gradNormSquares(shards))
	if coef := maxNorm / (norm + 1e-6); coef < 1 {
		var grads []*tensors.Tensor
		for _, sh := range shards {
			if g := sh.GradRef(); g != nil {
				grads = append(grads, g)
			}
		}
		tensors.ScaleInPlace(grads, coef)
	}
	return norm
}

// summon gathers every unit (collectively) and leaves them resident until the next forward pass
// or optimizer step: the whole model, to read or export.
func (s *sharder) summon() {
	s.inPass(func() {
		window := s.window
		s.window = 0
		defer func() { s.window = window }()
		for _, u := range s.units {
			s.gather(u)
		}
	})
}

// reshard takes every process's shards from the whole parameters, all resident (summon, then
// new values copied in: LoadState), and frees them.
func (s *sharder) reshard() {
	for _, u := range s.units {
		for i, q := range u.params {
			sh := u.shards[i]
			per := sh.Numel()
			vals := make([]float32, per)
			all := q.Float32s()
			if lo := s.grank * per; lo < len(all) {
				copy(vals, all[lo:min(lo+per, len(all))])
			}
			sh.CopyFrom(tensors.New(vals, per))
		}
	}
	s.evictAll()
}

// detach removes the gradient hooks.
func (s *sharder) detach() {
	for _, h := range s.hooks {
		h.Remove()
	}
	s.hooks = nil
	if s.dev != nil {
		releaseAll(s.dev.shard, s.dev.whole, s.dev.gshard, s.dev.gwhole, s.dev.ashard, s.dev.awhole)
		s.dev = nil
	}
	for _, u := range s.units {
		u.grads = nil // the shards' gradients may still be its parts
	}
	if s.replica != nil {
		// HYBRID_SHARD's sub-groups (their shared memory); the world stays.
		must(errors.Join(s.shard.Close(), s.replica.Close()), "FSDP HYBRID_SHARD: close the shard and replica groups")
		s.shard, s.replica = s.c, nil
	}
}
