package accelerate

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
)

// model is a prepared model: the user's module plus data-parallel gradient
// synchronisation and the configured autocast around Forward.
type model struct {
	inner    nn.Module
	acc      *Accelerator
	red      *reducer          // nil on one process, and under FSDP
	fsdp     *sharder          // FSDP's sharding (Config.FSDP on several processes), else nil
	buffers  []*tensors.Tensor // the module's buffers (BatchNorm's running statistics)
	noSync   bool              // inside NoSync / an off-sync Accumulate step
	autoDT   tensors.DType
	autocast bool
}

// Forward runs the wrapped module's Forward, under autocast with mixed precision. On several
// processes, a module in training first gets rank 0's buffers, as PyTorch's
// DistributedDataParallel does by default (broadcast_buffers): every process's running
// statistics are rank 0's.
func (m *model) Forward(x *tensors.Tensor) *tensors.Tensor {
	var out *tensors.Tensor
	m.call(func() { out = m.inner.Forward(x) })
	return out
}

// call runs a forward pass of the wrapped module, fn, as Forward runs it: after the broadcast
// of rank 0's buffers in training, under autocast with mixed precision.
func (m *model) call(fn func()) {
	if (m.red != nil || m.fsdp != nil) && len(m.buffers) > 0 && nn.IsTraining(m.inner) {
		broadcastTensors(m.acc.c, m.buffers, "Forward: broadcast the model's buffers from rank 0")
	}
	run := fn
	if m.autocast {
		run = func() { tensors.Autocast(m.autoDT, fn) }
	}
	if m.fsdp != nil {
		m.fsdp.forward(nn.IsTraining(m.inner), run)
		return
	}
	run()
}

// Parameters returns the wrapped module's parameters.
func (m *model) Parameters() []*tensors.Tensor { return m.inner.Parameters() }

// NamedParameters returns the wrapped module's named parameters.
func (m *model) NamedParameters() []nn.NamedParameter { return m.inner.NamedParameters() }

// Train passes the mode on to the wrapped module.
func (m *model) Train(on bool) { nn.SetTraining(m.inner, on) }

// Training reports the wrapped module's mode.
func (m *model) Training() bool { return nn.IsTraining(m.inner) }

// Unwrap returns the user's module.
func (m *model) Unwrap() nn.Module { return m.inner }

// UnwrapModel returns the module that Prepare wrapped (itself when it is not a
// prepared model): the one to export, with the parameter names the user gave.
// Export from the main process only, once every process is done:
//
//	acc.WaitForEveryone()
//	if acc.IsMainProcess() {
//		err = nn.SaveSafetensors("model.safetensors", nn.StateDict(acc.UnwrapModel(model)), nil)
//	}
//
// A prepared transformers.Model unwraps to the model FromPretrained returned, which
// transformers.SavePretrained writes.
//
// Under FSDP each process holds only its shard of each parameter: UnwrapModel gathers the whole
// model, which is a collective, so every process must call it (before the IsMainProcess guard);
// the parameters stay whole until the next forward pass or optimizer step.
func (a *Accelerator) UnwrapModel(m nn.Module) nn.Module {
	if w, ok := prepared(m); ok {
		if w.fsdp != nil {
			w.fsdp.summon()
		}
		return w.inner
	}
	return m
}

// prepared returns the prepared model behind m: m itself, or the one a prepared
// transformers.Model holds.
func prepared(m nn.Module) (*model, bool) {
	switch w := m.(type) {
	case *model:
		return w, true
	case *pretrained:
		return w.model, true
	}
	return nil, false
}

// SaveModel writes the unwrapped m's weights to dir/model.safetensors
// (Accelerate's save_model, without sharding), on the main process only; the
// other processes return nil at once, so every process may call it. The file is
// written under a temporary name and renamed, so an interrupted save leaves a
// previous model.safetensors whole. Under FSDP the whole model is gathered first
// from every process's shards: every process must call it.
func (a *Accelerator) SaveModel(m nn.Module, dir string) error {
	return a.SaveModelWith(m, dir, SaveModelOptions{})
}

// SaveModelOptions configure SaveModelWith (Accelerate's save_model arguments).
type SaveModelOptions struct {
	// MaxShardSize is the largest weight file ("10GB", "500MB", "100KiB" or a number of bytes;
	// "" means Accelerate's default, "10GB"). Weights above it are written in Hugging Face's
	// sharded layout, model-0000i-of-0000K.safetensors with model.safetensors.index.json, which
	// transformers' from_pretrained and package transformers' FromPretrained load.
	MaxShardSize string
}

// SaveModelWith is SaveModel with Accelerate's options: weights larger than opts.MaxShardSize
// are split into shards.
func (a *Accelerator) SaveModelWith(m nn.Module, dir string, opts SaveModelOptions) error {
	if opts.MaxShardSize == "" {
		opts.MaxShardSize = "10GB"
	}
	limit, err := transformers.ParseSize(opts.MaxShardSize)
	if err != nil {
		return fmt.Errorf("accelerate: SaveModel: MaxShardSize: %w", err)
	}
	if w, ok := prepared(m); ok && w.fsdp != nil {
		w.fsdp.summon()
	}
	if !a.IsMainProcess() {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("accelerate: SaveModel: %w", err)
	}
	sd := nn.StateDict(a.UnwrapModel(m))
	var bytes int64
	for _, t := range sd {
		bytes += int64(t.Numel()) * 4
	}
	if bytes > limit {
		if _, err := transformers.SaveWeights(dir, sd, slices.Sorted(maps.Keys(sd)), limit); err != nil {
			return fmt.Errorf("accelerate: SaveModel: %w", err)
		}
		return nil
	}
	path := filepath.Join(dir, "model.safetensors")
	tmp := filepath.Join(dir, ".model.safetensors.partial")
	if err := nn.SaveSafetensors(tmp, sd, map[string]string{"format": "pt"}); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("accelerate: SaveModel: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("accelerate: SaveModel: %w", err)
	}
	return nil
}

// prepareModel moves m to the Accelerator's device, broadcasts rank 0's
// parameters and wraps m.
func (a *Accelerator) prepareModel(m nn.Module) *model {
	if w, ok := prepared(m); ok {
		return w
	}
	w := &model{inner: m, acc: a}
	switch a.cfg.MixedPrecision {
	case "bf16":
		w.autocast, w.autoDT = true, tensors.BFloat16
	case "fp16":
		w.autocast, w.autoDT = true, tensors.Float16
	}
	fsdp := a.cfg.FSDP != nil && a.cfg.FSDP.ShardingStrategy != NoShard && a.c.Size() > 1
	if a.cfg.FSDP != nil && a.cfg.FSDP.ActivationCheckpointing {
		gc, ok := m.(nn.GradientCheckpointer)
		if !ok {
			panic(fmt.Sprintf("accelerate: Prepare: FSDP ActivationCheckpointing: the model (%T) has no SetGradientCheckpointing; wrap its blocks in nn.Checkpoint yourself", m))
		}
		gc.SetGradientCheckpointing(true)
	}
	if !fsdp {
		// Sharding moves the parameters one at a time, so that the whole model never needs to
		// fit the device.
		nn.MoveTo(m, a.device)
	}
	params := m.Parameters()
	if a.c.Size() > 1 {
		for _, b := range nn.NamedBuffersOf(m) {
			w.buffers = append(w.buffers, b.Param)
		}
		broadcastParams(a.c, append(append([]*tensors.Tensor(nil), params...), w.buffers...))
		if fsdp {
			for _, b := range w.buffers {
				b.MoveTo(a.device)
			}
			w.fsdp = newSharder(a.c, m, *a.cfg.FSDP, a.device)
			w.fsdp.paramBF16 = a.cfg.MixedPrecision == "bf16"
			nn.SetSyncGroup(m, syncGroup{w})
		} else {
			w.red = newReducer(a, params)
			nn.SetSyncGroup(m, syncGroup{w})
		}
	}
	a.models = append(a.models, w)
	return w
}

// syncGroup is the nn.Group a prepared model gives its synchronising batch normalisation layers:
// sums over the process group, which wait their turn behind the gradient all-reduces (DDP) or
// the prefetched all-gathers and the reduce-scatters (FSDP) already under way (every process
// then issues its collectives in the same order).
type syncGroup struct{ m *model }

func (g syncGroup) Size() int { return g.m.acc.c.Size() }

func (g syncGroup) AllReduceSum(t *tensors.Tensor) {
	c := g.m.acc.c
	run := g.m.red.collective
	if g.m.fsdp != nil {
		run = g.m.fsdp.collective
	}
	err := run(func() error {
		if t.Device().IsCPU() {
			buf := t.Float32s()
			if err := c.AllReduce(buf, "sum"); err != nil {
				return err
			}
			t.CopyFrom(tensors.New(buf, t.Shape()...))
			return nil
		}
		wait, err := c.StartAllReduceTensor(t, "sum")
		if err != nil {
			return err
		}
		return wait()
	})
	must(err, "SyncBatchNorm: sum the batch statistics across processes")
}

// broadcastTensors gives every process rank 0's values of ts (any dtype, through float32: the
// buffers of a model are float32 statistics and small counts).
func broadcastTensors(c comm, ts []*tensors.Tensor, what string) {
	n := 0
	for _, t := range ts {
		n += t.Numel()
	}
	flat := make([]float32, 0, n)
	for _, t := range ts {
		flat = append(flat, t.Float32s()...)
	}
	must(c.Broadcast(flat, 0), what)
	off := 0
	for _, t := range ts {
		t.CopyFrom(tensors.New(flat[off:off+t.Numel()], t.Shape()...))
		off += t.Numel()
	}
}

// broadcastParams gives every process rank 0's parameters (and buffers). When
// every process already holds the same values (SetSeed before building the
// model, the usual case) a fingerprint exchange shows it and the copy is
// skipped.
func broadcastParams(c comm, params []*tensors.Tensor) {
	n := 0
	for _, p := range params {
		n += p.Numel()
	}
	flat := make([]float32, 0, n)
	for _, p := range params {
		flat = append(flat, p.Float32s()...)
	}
	raw := make([]byte, 0, 4*len(flat))
	for _, v := range flat {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
	}
	h := fnv.New64a()
	h.Write(raw)
	prints, err := c.AllGatherBytes(h.Sum(nil))
	must(err, "Prepare: compare the model's parameters across processes")
	same := true
	for _, p := range prints {
		same = same && string(p) == string(prints[0])
	}
	if same {
		return
	}
	must(c.Broadcast(flat, 0), "Prepare: broadcast the model's parameters from rank 0")
	off := 0
	for _, p := range params {
		p.CopyFrom(tensors.New(flat[off:off+p.Numel()], p.Shape()...))
		off += p.Numel()
	}
}
