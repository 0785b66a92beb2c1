package accelerate

import "github.com/goaccel/goaccel/tensors"

// tensorComm is a comm whose tensor collectives can run on a device's memory (NCCL): FSDP's
// gathers and reduce-scatters then never copy through the host.
type tensorComm interface {
	// TakesDevice reports whether the tensor collectives run on d's memory.
	TakesDevice(d tensors.Device) bool
	// AllGatherIntoTensor fills recv with every process's send (one length on all) in rank
	// order.
	AllGatherIntoTensor(send, recv *tensors.Tensor) error
	// StartAllGatherIntoTensor starts it alongside the work queued after it; wait makes later
	// work see recv.
	StartAllGatherIntoTensor(send, recv *tensors.Tensor) (wait func() error, err error)
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

// deviceBuffers are the device memory FSDP's collectives run in on a GPU, made once for the
// largest unit and used by every unit in turn, as DDP's gradient buckets are: a collective
// pins the memory it is handed (its address leaves the tensor), so memory made for each
// collective would come back only at a garbage collection. The collectives and the copies in
// and out of the buffers are queued on the device's stream in order, so one set serves every
// unit.
type deviceBuffers struct {
	// shard and whole: a reduce-scatter's recv and send (float32), and a gather's send and
	// recv unless the parameters are gathered in bfloat16, which gshard and gwhole then are.
	shard, whole   *tensors.Tensor
	gshard, gwhole *tensors.Tensor
	// ashard and awhole are a prefetched gather's (made at the first prefetch): the next unit's
	// all-gather runs on NCCL's side stream while the current unit computes.
	ashard, awhole *tensors.Tensor
}

// buffers returns the first n elements of the shard-sized buffer and the first G×n of the
// whole-sized one, for a gather (in the gathered dtype) or a reduce-scatter (float32), made on
// dev at the first use.
func (s *sharder) buffers(dev tensors.Device, n int, gather bool) (shard, whole *tensors.Tensor) {
	b := s.deviceBuffers(dev)
	sh, wh := b.shard, b.whole
	if gather {
		sh, wh = b.gshard, b.gwhole
	}
	return sh.Slice(0, 0, n), wh.Slice(0, 0, s.group*n)
}

// aheadBuffers returns a prefetched gather's buffers for n elements a process, made at the first
// prefetch in the gathered dtype.
func (s *sharder) aheadBuffers(dev tensors.Device, n int) (shard, whole *tensors.Tensor) {
	b := s.deviceBuffers(dev)
	if b.ashard == nil {
		b.ashard, b.awhole = s.bufferPair(dev, b.gshard.DType())
	}
	return b.ashard.Slice(0, 0, n), b.awhole.Slice(0, 0, s.group*n)
}

// deviceBuffers returns the sharder's device buffers, made on dev at the first use.
func (s *sharder) deviceBuffers(dev tensors.Device) *deviceBuffers {
	if s.dev == nil {
		b := &deviceBuffers{}
		b.shard, b.whole = s.bufferPair(dev, tensors.Float32)
		b.gshard, b.gwhole = b.shard, b.whole
		if s.paramBF16 {
			b.gshard, b.gwhole = s.bufferPair(dev, tensors.BFloat16)
		}
		s.dev = b
	}
	return s.dev
}

// bufferPair makes a buffer of the largest unit's flat shard and one of G of them, of dtype dt
// on dev.
func (s *sharder) bufferPair(dev tensors.Device, dt tensors.DType) (shard, whole *tensors.Tensor) {
	largest := 0
	for _, u := range s.units {
		largest = max(largest, u.size)
	}
	return tensors.Zeros(largest).AsType(dt).To(dev), tensors.Zeros(s.group * largest).AsType(dt).To(dev)
}

// fillShards copies u's shards into send (rounded to its dtype), on the device's stream.
func fillShards(send *tensors.Tensor, u *fsdpUnit) {
	for i, sh := range u.shards {
		part := send.Slice(0, u.offsets[i], u.offsets[i]+sh.Numel())
		part.CopyFrom(sh)
		part.Release()
	}
}

// syncAhead makes the device's stream wait for a prefetched all-gather still on NCCL's side
// stream: before another collective on the same communicator (NCCL runs one at a time, in the
// order every process issues them), and before its buffers are written again.
func (s *sharder) syncAhead() {
	if a := s.ahead; a != nil && a.wait != nil {
		wait := a.wait
		a.wait = nil
		must(wait(), "FSDP: the prefetched all-gather of unit "+a.u.name)
	}
}

// prefetchOnDevice starts the all-gather of v on NCCL's side stream into the prefetch buffers;
// gatherOnDevice waits for it when an op asks for v.
func (s *sharder) prefetchOnDevice(tc tensorComm, v *fsdpUnit) {
	tensors.NoGrad(func() {
		send, all := s.aheadBuffers(v.shards[0].Device(), v.size)
		fillShards(send, v)
		wait, err := tc.StartAllGatherIntoTensor(send, all)
		must(err, "FSDP: prefetch the parameters of unit "+v.name)
		send.Release()
		done := &collective{done: make(chan struct{})}
		close(done.done)
		s.ahead = &prefetched{u: v, op: done, dev: all, wait: wait}
	})
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
		// Under bf16 mixed precision the float32 shards are rounded to bfloat16 as they are
		// copied in: half the bytes cross, and the parameters get them back widened.
		var all *tensors.Tensor
		if a := s.ahead; a != nil && a.u == u && a.dev != nil {
			s.syncAhead()
			all, s.ahead = a.dev, nil
			s.prefetchHits++
		} else {
			s.syncAhead()
			var send *tensors.Tensor
			send, all = s.buffers(u.shards[0].Device(), u.size, true)
			fillShards(send, u)
			must(tc.AllGatherIntoTensor(send, all), "FSDP: all-gather the parameters of unit "+u.name)
			send.Release()
		}
		elt := int64(4)
		if all.DType() == tensors.BFloat16 {
			elt = 2
		}
		s.gatheredBytes += elt * int64(all.Numel())
		// Row j holds process j's flat shard of the unit; a parameter is its columns, row by row.
		grid := all.Reshape(s.group, u.size)
		for i, q := range u.params {
			per := u.shards[i].Numel()
			cols := grid.Slice(1, u.offsets[i], u.offsets[i]+per)
			flat := cols.Contiguous()
			line := flat.Reshape(s.group * per)
			whole := line.Slice(0, 0, q.Numel())
			q.Unevict(whole) // copies: the temporaries go back to the device's cache now
			releaseAll(cols, flat, line, whole)
		}
		releaseAll(grid, all)
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
	s.syncAhead()
	tensors.NoGrad(func() {
		recv, send := s.buffers(dev, u.size, false)
		// send is G rows of the unit's flat shard: row r holds every parameter's r-th piece.
		grid := send.Reshape(s.group, u.size)
		for i, q := range u.params {
			per := u.shards[i].Numel()
			cols := grid.Slice(1, u.offsets[i], u.offsets[i]+per)
			g := q.GradRef()
			if g == nil {
				cols.Fill(0)
				cols.Release()
				continue
			}
			c := g.Contiguous()
			flat := c.Reshape(q.Numel())
			if c != g {
				c.Release()
			}
			if pad := s.group*per - q.Numel(); pad > 0 {
				zeros := tensors.Zeros(pad).To(dev)
				padded := tensors.Cat([]*tensors.Tensor{flat, zeros}, 0)
				releaseAll(flat, zeros)
				flat = padded
			}
			rows := flat.Reshape(s.group, per)
			cols.CopyFrom(rows)
			releaseAll(cols, rows, flat)
		}
		grid.Release()
		for _, q := range u.params {
			q.ZeroGrad()
		}
		must(tc.ReduceScatterTensor(send, recv, "mean"), "FSDP: reduce-scatter the gradients of unit "+u.name)
		if s.replica != nil && s.replica.Size() > 1 {
			wait, err := s.replica.StartAllReduceTensor(recv, "mean")
			must(err, "FSDP HYBRID_SHARD: all-reduce the gradient shards of unit "+u.name+" across the replica group")
			must(wait(), "FSDP HYBRID_SHARD: all-reduce the gradient shards of unit "+u.name+" across the replica group")
		}
		grads := s.gradBuffer(u, dev)
		for i, sh := range u.shards {
			lo, hi := u.offsets[i], u.offsets[i]+sh.Numel()
			part := recv.Slice(0, lo, hi)
			if old := sh.GradRef(); old != nil { // accumulating over steps without ZeroGrad
				sum := old.Add(part)
				old.CopyFrom(sum)
				releaseAll(sum, part)
				continue
			}
			dst := grads.Slice(0, lo, hi)
			dst.CopyFrom(part)
			sh.SetGrad(dst)
			part.Release()
		}
		releaseAll(send, recv)
	})
	return true
}

// gradBuffer returns u's flat shard of gradients on dev, made at the first use and kept: the
// shards' gradients are its parts, so a step makes no device memory for them.
func (s *sharder) gradBuffer(u *fsdpUnit, dev tensors.Device) *tensors.Tensor {
	if u.grads == nil {
		u.grads = tensors.Zeros(u.size).To(dev)
	}
	return u.grads
}

// releaseAll gives the memory of the sharder's own temporaries back to the device's cache now
// instead of at a garbage collection (a GPU's memory is not the garbage collector's to pace).
func releaseAll(ts ...*tensors.Tensor) {
	for _, t := range ts {
		t.Release()
	}
}
