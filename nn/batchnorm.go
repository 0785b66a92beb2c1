package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// BatchNormConfig holds the options of the batch normalisation layers; each zero value is
// PyTorch's default.
type BatchNormConfig struct {
	// Eps is added to the variance (0: PyTorch's 1e-5).
	Eps float64
	// Momentum is the weight of each batch in the running statistics (0: PyTorch's 0.1).
	Momentum float64
	// CumulativeAverage keeps the running statistics as a plain average of every batch so far
	// (PyTorch's momentum=None).
	CumulativeAverage bool
	// NoAffine leaves out the learnable per-channel weight and bias (affine=False).
	NoAffine bool
	// NoRunningStats keeps no running statistics: batch statistics in evaluation too
	// (track_running_stats=False).
	NoRunningStats bool
}

// batchNorm is the state and forward pass the batch normalisation layers share.
type batchNorm struct {
	mode
	NumFeatures int
	Eps         float64
	Momentum    float64
	// CumulativeAverage: the running statistics average every batch equally (momentum=None).
	CumulativeAverage bool
	// Weight and Bias are the learnable per-channel scale and shift (nil without affine).
	Weight, Bias *tensors.Tensor
	// RunningMean and RunningVar are the running statistics and NumBatchesTracked the number of
	// training batches seen (an int64 scalar): buffers, nil without running statistics.
	RunningMean, RunningVar, NumBatchesTracked *tensors.Tensor

	kind  string // the layer's name in messages
	dims  []int  // input ranks accepted
	sync  bool   // statistics across processes (SyncBatchNorm, or converted)
	group Group  // the processes, once SetSyncGroup gave them
}

func newBatchNorm(kind string, dims []int, c int, cfg BatchNormConfig) batchNorm {
	if c <= 0 {
		panic(fmt.Sprintf("nn: New%s: the number of features must be positive, got %d", kind, c))
	}
	if cfg.Eps == 0 {
		cfg.Eps = 1e-5
	}
	if cfg.Momentum == 0 {
		cfg.Momentum = 0.1
	}
	b := batchNorm{NumFeatures: c, Eps: cfg.Eps, Momentum: cfg.Momentum, CumulativeAverage: cfg.CumulativeAverage, kind: kind, dims: dims}
	if !cfg.NoAffine {
		b.Weight = tensors.Ones(c).SetRequiresGrad(true)
		b.Bias = tensors.Zeros(c).SetRequiresGrad(true)
	}
	if !cfg.NoRunningStats {
		b.RunningMean, b.RunningVar = tensors.Zeros(c), tensors.Ones(c)
		b.NumBatchesTracked = tensors.FromInt64([]int64{0}).Reshape()
	}
	return b
}

// forward normalises x: with the batch's statistics in training (and with no running
// statistics), updating the running ones; with the running ones in evaluation. A synchronising
// layer in a group of several processes uses the statistics of every process's batch.
func (b *batchNorm) forward(x *tensors.Tensor) *tensors.Tensor {
	ok := false
	for _, d := range b.dims {
		ok = ok || x.Dim() == d
	}
	if !ok || x.Size(1) != b.NumFeatures {
		panic(fmt.Sprintf("nn: %s: input of shape %v; want %s with %d channels", b.kind, x.Shape(), b.want(), b.NumFeatures))
	}
	training := b.Training()
	momentum := b.Momentum
	if training && b.NumBatchesTracked != nil {
		n := b.NumBatchesTracked // a buffer: no graph (and no NoGrad, which is process-wide)
		n.CopyFrom(n.AddScalar(1))
		if b.CumulativeAverage {
			momentum = 1 / n.Item()
		}
	}
	if !training && b.RunningMean != nil {
		return tensors.BatchNorm(x, b.RunningMean, b.RunningVar, b.Weight, b.Bias, false, momentum, b.Eps)
	}
	rm, rv := b.RunningMean, b.RunningVar
	if !training {
		rm, rv = nil, nil
	}
	if b.sync && b.group != nil && b.group.Size() > 1 && training {
		return tensors.SyncBatchNorm(x, rm, rv, b.Weight, b.Bias, momentum, b.Eps, b.group.AllReduceSum)
	}
	return tensors.BatchNorm(x, rm, rv, b.Weight, b.Bias, true, momentum, b.Eps)
}

func (b *batchNorm) want() string {
	switch b.kind {
	case "BatchNorm1d":
		return "[N, C] or [N, C, L]"
	case "BatchNorm2d":
		return "[N, C, H, W]"
	}
	return "[N, C, …]"
}

// Parameters returns weight then bias (none without affine).
func (b *batchNorm) Parameters() []*tensors.Tensor {
	if b.Weight == nil {
		return nil
	}
	return []*tensors.Tensor{b.Weight, b.Bias}
}

// NamedParameters returns "weight" and "bias" (none without affine).
func (b *batchNorm) NamedParameters() []NamedParameter {
	if b.Weight == nil {
		return nil
	}
	return []NamedParameter{{"weight", b.Weight}, {"bias", b.Bias}}
}

// NamedBuffers returns "running_mean", "running_var" and "num_batches_tracked", PyTorch's names
// (none without running statistics).
func (b *batchNorm) NamedBuffers() []NamedParameter {
	if b.RunningMean == nil {
		return nil
	}
	return []NamedParameter{{"running_mean", b.RunningMean}, {"running_var", b.RunningVar}, {"num_batches_tracked", b.NumBatchesTracked}}
}

func (b *batchNorm) String() string {
	return fmt.Sprintf("%s(%d, eps=%g, momentum=%g, affine=%v, track_running_stats=%v)", b.kind, b.NumFeatures, b.Eps, b.Momentum, b.Weight != nil, b.RunningMean != nil)
}

// base returns the shared state (for ConvertSyncBatchNorm and SetSyncGroup).
func (b *batchNorm) base() *batchNorm { return b }

// BatchNorm1d normalises [N, C] or [N, C, L] input per channel over the batch (and L), then
// scales and shifts each channel (torch.nn.BatchNorm1d): with the batch's statistics in training,
// updating running estimates of them, and with those estimates in evaluation mode
// (nn.SetTraining(model, false)).
type BatchNorm1d struct{ batchNorm }

// NewBatchNorm1d returns a BatchNorm1d over c channels with PyTorch's defaults (eps 1e-5,
// momentum 0.1, affine, running statistics).
func NewBatchNorm1d(c int) *BatchNorm1d { return NewBatchNorm1dWith(c, BatchNormConfig{}) }

// NewBatchNorm1dWith returns a BatchNorm1d with the given options.
func NewBatchNorm1dWith(c int, cfg BatchNormConfig) *BatchNorm1d {
	return &BatchNorm1d{newBatchNorm("BatchNorm1d", []int{2, 3}, c, cfg)}
}

// Forward normalises x.
func (b *BatchNorm1d) Forward(x *tensors.Tensor) *tensors.Tensor { return b.forward(x) }

// BatchNorm2d normalises [N, C, H, W] input per channel over the batch and the plane, then
// scales and shifts each channel (torch.nn.BatchNorm2d); see BatchNorm1d for the modes.
type BatchNorm2d struct{ batchNorm }

// NewBatchNorm2d returns a BatchNorm2d over c channels with PyTorch's defaults.
func NewBatchNorm2d(c int) *BatchNorm2d { return NewBatchNorm2dWith(c, BatchNormConfig{}) }

// NewBatchNorm2dWith returns a BatchNorm2d with the given options.
func NewBatchNorm2dWith(c int, cfg BatchNormConfig) *BatchNorm2d {
	return &BatchNorm2d{newBatchNorm("BatchNorm2d", []int{4}, c, cfg)}
}

// Forward normalises x.
func (b *BatchNorm2d) Forward(x *tensors.Tensor) *tensors.Tensor { return b.forward(x) }

// SyncBatchNorm is batch normalisation over the batch of every process of a data-parallel job
// (torch.nn.SyncBatchNorm): in training, the per-channel statistics are those of all processes'
// batches together, summed across the processes in the forward and the backward pass, so a model
// trained on N processes with batch B normalises as on one with batch N·B; evaluation uses the
// running statistics, which every process updates alike. It takes input of any rank ≥ 2. A
// prepared model (accelerate's Prepare) gets its process group; alone, or on one process, it is
// BatchNorm. ConvertSyncBatchNorm turns a model's BatchNorm1d and BatchNorm2d layers into it.
type SyncBatchNorm struct{ batchNorm }

// NewSyncBatchNorm returns a SyncBatchNorm over c channels with PyTorch's defaults.
func NewSyncBatchNorm(c int) *SyncBatchNorm { return NewSyncBatchNormWith(c, BatchNormConfig{}) }

// NewSyncBatchNormWith returns a SyncBatchNorm with the given options.
func NewSyncBatchNormWith(c int, cfg BatchNormConfig) *SyncBatchNorm {
	s := &SyncBatchNorm{newBatchNorm("SyncBatchNorm", []int{2, 3, 4, 5}, c, cfg)}
	s.sync = true
	return s
}

// Forward normalises x.
func (s *SyncBatchNorm) Forward(x *tensors.Tensor) *tensors.Tensor { return s.forward(x) }

// A Group is the processes of a data-parallel job, as SyncBatchNorm needs them: a prepared model
// (package accelerate) gives its group to every synchronising layer.
type Group interface {
	// Size returns the number of processes.
	Size() int
	// AllReduceSum replaces t, a contiguous float32 tensor on the model's device, with its sum
	// over the processes. Every process calls it in the same order.
	AllReduceSum(t *tensors.Tensor)
}

// normer is implemented by the batch normalisation layers.
type normer interface{ base() *batchNorm }

// ConvertSyncBatchNorm makes every BatchNorm1d and BatchNorm2d layer of m (found through
// containers and exported fields, as SetTraining finds modules) synchronise its statistics across
// the processes of a data-parallel job, as SyncBatchNorm does, keeping its parameters and
// running statistics: PyTorch's torch.nn.SyncBatchNorm.convert_sync_batchnorm(model), which
// Accelerate users call before prepare. The layers keep their types (a model struct's
// *nn.BatchNorm2d field stays one). It returns m, and is a no-op for m without batch
// normalisation.
func ConvertSyncBatchNorm(m Module) Module {
	forEachModule(m, func(x Module) {
		if b, ok := x.(normer); ok {
			b.base().sync = true
		}
	})
	return m
}

// SetSyncGroup gives g to every synchronising batch normalisation layer of m (SyncBatchNorm, or
// converted by ConvertSyncBatchNorm) and returns how many it found; accelerate's Prepare calls it.
// A nil g makes them normalise over their own process's batch again.
func SetSyncGroup(m Module, g Group) int {
	n := 0
	forEachModule(m, func(x Module) {
		if b, ok := x.(normer); ok && b.base().sync {
			b.base().group = g
			n++
		}
	})
	return n
}
