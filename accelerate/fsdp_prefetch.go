package accelerate

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Backward prefetch policies (FullyShardedDataParallelPlugin.BackwardPrefetch), PyTorch's
// BackwardPrefetch under the names Accelerate's fsdp_backward_prefetch uses.
const (
	// BackwardPre starts the all-gather of the next unit of the backward pass when the
	// current unit is gathered, before its gradients are computed.
	BackwardPre = "BACKWARD_PRE"
	// BackwardPost starts it once the current unit's gradients are final.
	BackwardPost = "BACKWARD_POST"
	// NoPrefetch gathers each unit when an op first uses it (Accelerate's default).
	NoPrefetch = "NO_PREFETCH"
)

// collective is one of the sharder's collectives, run on its own goroutine after every
// collective started before it: each process starts them in the same order, so they meet in
// the same order whatever runs alongside.
type collective struct {
	what string
	done chan struct{}
	err  error
}

// start runs fn after the sharder's earlier collectives, alongside the caller.
func (s *sharder) start(what string, fn func() error) *collective {
	op := &collective{what: what, done: make(chan struct{})}
	prev := s.last
	s.last = op
	go func() {
		defer close(op.done)
		if prev != nil {
			<-prev.done
			if prev.err != nil {
				op.err = fmt.Errorf("after %s failed: %w", prev.what, prev.err)
				return
			}
		}
		op.err = fn()
	}()
	return op
}

// wait blocks until op has run and panics with its error.
func (op *collective) wait() {
	<-op.done
	must(op.err, op.what)
}

// collective runs fn, a collective of another part of the program during a pass (a
// SyncBatchNorm's sums), after the sharder's collectives under way, and returns its error.
func (s *sharder) collective(fn func() error) error {
	op := s.start("", fn)
	<-op.done
	return op.err
}

// settle waits for every collective the sharder started: a collective it calls directly on
// the group must not meet another process's queued one.
func (s *sharder) settle() {
	if s.last != nil {
		s.last.wait()
		s.last = nil
	}
}

// prefetched is a unit's all-gather started before any op asked for the unit.
type prefetched struct {
	u    *fsdpUnit
	recv []float32
	op   *collective
	// On a GPU (fsdp_device.go): the all-gather runs on NCCL's side stream into dev, and wait
	// (nil once called) makes the device's stream wait for it; op is then already done.
	dev  *tensors.Tensor
	wait func() error
}

// passKind says which order of gathers a pass follows.
type passKind int

const (
	otherPass passKind = iota // summon, LoadState: every unit, no prefetch
	forwardPass
	backwardPass
)

// beginOrder starts recording the order in which this pass gathers its units.
func (s *sharder) beginOrder(k passKind) {
	s.kind, s.order = k, s.order[:0]
}

// endOrder keeps the pass's order of gathers for the next pass of its kind, and waits for
// a prefetch no op asked for (its unit was not used as the last pass predicted).
func (s *sharder) endOrder() {
	if s.kind != otherPass {
		s.seen[s.kind] = append(s.seen[s.kind][:0], s.order...)
	}
	s.syncAhead()
	s.kind, s.ahead = otherPass, nil
	s.settle()
}

// gathered records u as the pass's next gather and, under forward prefetch or BACKWARD_PRE,
// starts the all-gather of the unit that followed it in the last pass of this kind.
func (s *sharder) gathered(u *fsdpUnit) {
	if s.kind == otherPass {
		return
	}
	s.order = append(s.order, u)
	if (s.kind == forwardPass && s.forwardPrefetch) || (s.kind == backwardPass && s.backwardPrefetch == BackwardPre) {
		s.prefetchNext()
	}
}

// prefetchNext starts the all-gather of the unit the last pass of this kind gathered next,
// if this pass has gathered the same units so far.
func (s *sharder) prefetchNext() {
	prev, i := s.seen[s.kind], len(s.order)
	if i >= len(prev) || (i > 0 && prev[i-1] != s.order[i-1]) {
		return
	}
	v := prev[i]
	if v.resident || (s.ahead != nil && s.ahead.u == v) {
		return
	}
	if s.ahead != nil {
		s.ahead.op.wait() // unused: its buffer goes, one prefetch at a time
		s.syncAhead()
	}
	if tc, ok := deviceComm(s.shard, v.shards[0].Device()); ok {
		s.prefetchOnDevice(tc, v)
		s.notePeak()
		return
	}
	recv, op := s.startAllGather(v)
	s.ahead = &prefetched{u: v, recv: recv, op: op}
	s.notePeak()
}

// startAllGather starts the all-gather of u's shards within the shard group; recv holds every process's after the
// collective has run (under bf16 mixed precision two bfloat16 values to a float32 slot:
// unpackGathered reads them).
func (s *sharder) startAllGather(u *fsdpUnit) ([]float32, *collective) {
	n := u.size
	if s.paramBF16 {
		n = (u.size + 1) / 2
	}
	send := make([]float32, n)
	for i, sh := range u.shards {
		if s.paramBF16 {
			packBF16(send, u.offsets[i], sh.Float32s())
		} else {
			copy(send[u.offsets[i]:], sh.Float32s())
		}
	}
	recv := make([]float32, s.group*n)
	s.gatheredBytes += 4 * int64(len(recv))
	return recv, s.start("FSDP: all-gather the parameters of unit "+u.name, func() error { return s.shard.AllGather(send, recv) })
}

// scatter is a unit's reduce-scatter of its gradients, started when they were final.
type scatter struct {
	u    *fsdpUnit
	recv []float32
	op   *collective
}

// finishScatters waits for the started reduce-scatters and adds each unit's averaged
// gradients to its shards' gradients, in the order they were started.
func (s *sharder) finishScatters() {
	for _, sc := range s.scatters {
		sc.op.wait()
		s.addShardGrads(sc.u, sc.recv)
	}
	s.scatters = s.scatters[:0]
	s.settle()
}

// dropInFlight waits for every started collective after a pass that panicked and forgets them.
func (s *sharder) dropInFlight() {
	if s.last != nil {
		<-s.last.done
		s.last = nil
	}
	if a := s.ahead; a != nil && a.wait != nil {
		_ = a.wait() // the pass failed already; the stream must still wait before the buffers are reused
	}
	s.ahead, s.scatters, s.kind = nil, s.scatters[:0], otherPass
}

// aheadBytes is the bytes of the prefetched unit's whole parameters.
func (s *sharder) aheadBytes() int64 {
	if s.ahead == nil {
		return 0
	}
	n := int64(0)
	for _, q := range s.ahead.u.params {
		n += 4 * int64(q.Numel())
	}
	return n
}

// parseBackwardPrefetch reads a backward prefetch policy by name or by PyTorch's number
// (1 BACKWARD_PRE, 2 BACKWARD_POST); "" is NO_PREFETCH.
func parseBackwardPrefetch(v string) (string, error) {
	switch v {
	case "", "NO_PREFETCH", "NONE", "3":
		return NoPrefetch, nil
	case BackwardPre, "1":
		return BackwardPre, nil
	case BackwardPost, "2":
		return BackwardPost, nil
	}
	return "", fmt.Errorf("FSDP BackwardPrefetch is %q; use BACKWARD_PRE, BACKWARD_POST or NO_PREFETCH", v)
}
