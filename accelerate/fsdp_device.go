package accelerate

import "github.com/goaccel/goaccel/tensors"

// tensorComm is a comm whose tensor collectives can run on a device's memory (NCCL): FSDP's
// gathers and reduce-scatters then never copy through the host.
type tensorComm interface {
	// TakesDevice reports whether the tensor collectives run on d's memory.
	TakesDevice(d tensors.Device) bool
	// AllGatherTensor concatenates every process's t (one length on all) in rank order.
	AllGatherTensor(t *tensors.Tensor) (*tensors.Tensor, error)
	// ReduceScatterTensor combines send (Size() blocks) across processes and leaves this
	// process's block in recv; op is "sum" or "mean".
	ReduceScatterTensor(send, recv *tensors.Tensor, op string) error
}

// deviceComm returns c's tensor collectives when they run on d's memory.
func deviceComm(c comm, d tensors.Device) (tensorComm, bool) {
	tc, ok := c.(tensorComm)
	if !ok || !tc.TakesDevice(d) {
		return nil, false
	}
	return tc, true
}

// gatherOnDevice all-gathers u's shards on their device when the shard group's collectives run
// there, and gives u's parameters their elements back from the gathered copy; it reports
// whether it did.
func (s *sharder) gatherOnDevice(u *fsdpUnit) bool {
	tc, ok := deviceComm(s.shard, u.shards[0].Device())
	if !ok {
		return false
	}
	s.deviceCollectives = true
	tensors.NoGrad(func() {
		all, err := tc.AllGatherTensor(tensors.Cat(u.shards, 0))
		must(err, "FSDP: all-gather the parameters of unit "+u.name)
		// Row j holds process j's flat shard of the unit; a parameter is its columns, row by row.
		grid := all.Reshape(s.group, u.size)
		for i, q := range u.params {
			per := u.shards[i].Numel()
			cols := grid.Slice(1, u.offsets[i], u.offsets[i]+per).Contiguous().Reshape(s.group * per)
			q.Unevict(cols.Slice(0, 0, q.Numel()))
		}
	})
	return true
}

// reduceScatterOnDevice is reduceScatter on the gradients' device when the shard group's
// collectives run there (and, under HYBRID_SHARD, the replica group's all-reduce of the
// result); it reports whether it did.
func (s *sharder) reduceScatterOnDevice(u *fsdpUnit) bool {
	dev := u.shards[0].Device()
	tc, ok := deviceComm(s.shard, dev)
	if !ok {
		return false
	}
	tensors.NoGrad(func() {
		// send is G rows of the unit's flat shard: row r holds every parameter's r-th piece.
		cols := make([]*tensors.Tensor, len(u.params))
		for i, q := range u.params {
			per := u.shards[i].Numel()
			flat := tensors.Zeros(s.group * per).To(dev)
			if g := q.GradRef(); g != nil {
				flat = g.Contiguous().Reshape(q.Numel())
				if pad := s.group*per - q.Numel(); pad > 0 {
					flat = tensors.Cat([]*tensors.Tensor{flat, tensors.Zeros(pad).To(dev)}, 0)
				}
			}
			cols[i] = flat.Reshape(s.group, per)
		}
		send := tensors.Cat(cols, 1).Contiguous().Reshape(s.group * u.size)
		for _, q := range u.params {
			q.ZeroGrad()
		}
		recv := tensors.Zeros(u.size).To(dev)
		must(tc.ReduceScatterTensor(send, recv, "mean"), "FSDP: reduce-scatter the gradients of unit "+u.name)
		if s.replica != nil && s.replica.Size() > 1 {
			wait, err := s.replica.StartAllReduceTensor(recv, "mean")
			must(err, "FSDP HYBRID_SHARD: all-reduce the gradient shards of unit "+u.name+" across the replica group")
			must(wait(), "FSDP HYBRID_SHARD: all-reduce the gradient shards of unit "+u.name+" across the replica group")
		}
		for i, sh := range u.shards {
			piece := recv.Slice(0, u.offsets[i], u.offsets[i]+sh.Numel()).Contiguous()
			if old := sh.GradRef(); old != nil {
				piece = old.Add(piece)
			}
			sh.SetGrad(piece)
		}
	})
	return true
}
