package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// CrossEntropyOptions configures CrossEntropyWith, mirroring torch.nn.functional.cross_entropy.
type CrossEntropyOptions struct {
	IgnoreIndex    int64   // targets equal to this contribute no loss and no gradient
	LabelSmoothing float64 // in [0, 1]: mixes the one-hot target with the uniform distribution
	Reduction      string  // "mean" (over non-ignored targets), "sum" or "none"
}

// DefaultCrossEntropyOptions returns PyTorch's defaults: ignore -100, no smoothing, mean.
func DefaultCrossEntropyOptions() CrossEntropyOptions {
	return CrossEntropyOptions{IgnoreIndex: -100, Reduction: "mean"}
}

// CrossEntropy is the mean cross entropy of logits [N, C] (or [N, C, d...]) against int64
// class targets [N] (or [N, d...]), fused log-softmax + NLL.
func CrossEntropy(logits, target *Tensor) *Tensor {
	return CrossEntropyWith(logits, target, DefaultCrossEntropyOptions())
}

// CrossEntropyWith is CrossEntropy with explicit options.
func CrossEntropyWith(logits, target *Tensor, opts CrossEntropyOptions) *Tensor {
	defer opSpan("CrossEntropy", logits, target).End()
	if target.dtype != Int64 {
		panic(fmt.Sprintf("tensors: CrossEntropy: target must hold int64 class indices, have %s (use AsType(tensors.Int64))", target.dtype))
	}
	if opts.LabelSmoothing < 0 || opts.LabelSmoothing > 1 {
		panic(fmt.Sprintf("tensors: CrossEntropy: label smoothing %v outside [0, 1]", opts.LabelSmoothing))
	}
	switch opts.Reduction {
	case "mean", "sum", "none":
	case "":
		opts.Reduction = "mean"
	default:
		panic(fmt.Sprintf("tensors: CrossEntropy: reduction %q is not one of mean, sum, none", opts.Reduction))
	}
	lg := logits
	var want []int
	switch {
	case logits.Dim() == 2:
		want = logits.shape[:1]
	case logits.Dim() > 2:
		want = append([]int{logits.shape[0]}, logits.shape[2:]...)
		perm := []int{0}
		for i := 2; i < logits.Dim(); i++ {
			perm = append(perm, i)
		}
		p := logits.Permute(append(perm, 1)...)
		lg = p.Reshape(-1, logits.shape[1])
		p.release() // Reshape's node keeps what it needs
	default:
		panic(fmt.Sprintf("tensors: CrossEntropy: logits shape %v needs a batch and a class dimension", logits.shape))
	}
	if !slices.Equal(target.shape, want) {
		panic(fmt.Sprintf("tensors: CrossEntropy: logits shape %v and target shape %v do not match (need target %v)", logits.shape, target.shape, want))
	}
	checkDevices("CrossEntropy", logits, target)
	rows, classes := lg.shape[0], lg.shape[1]
	x := lg.dense()
	tg := target.contig()
	be := x.be()
	dt, dev := x.dtype, x.dev
	loss := empty(dt, dev, rows)
	prob := empty(dt, dev, rows, classes)
	// The mean's divisor, the count of real targets, comes from the kernel and stays on the
	// device with the sum: no read-back per step.
	var count *Tensor
	if opts.Reduction == "mean" {
		count = empty(dt, dev)
	}
	be.CrossEntropy(loss.buf(), prob.buf(), bufOf(count), x.buf(), tg.buf(), rows, classes, opts.IgnoreIndex, opts.LabelSmoothing)
	releaseIfNot(x, lg)
	var out *Tensor
	switch opts.Reduction {
	case "none":
		out = loss.view(slices.Clone(want), contiguousStrides(want), 0)
	default:
		sum := sumRaw(loss, []int{0})
		out = handOver(sum, sum.view([]int{}, []int{}, 0))
		if count != nil {
			out = handOver(out, binary(backend.Div, "CrossEntropy", out, count))
		}
	}
	loss.release()
	record(out, "CrossEntropy", []*Tensor{lg}, func(g *Tensor) []*Tensor {
		gl := g.contig()
		if opts.Reduction == "mean" {
			gl = handOverUnless(gl, g, binary(backend.Div, "CrossEntropy", gl, count))
		}
		gl = handOverUnless(gl, g, gl.AsType(dt))
		dx := empty(dt, dev, rows, classes)
		be.CrossEntropyGrad(dx.buf(), gl.buf(), prob.buf(), tg.buf(), rows, classes, opts.IgnoreIndex, opts.LabelSmoothing)
		releaseIfNot(gl, g)
		return []*Tensor{dx}
	}, prob, tg, count)
	// The node holds what its backward pass reads; without one they are free now.
	prob.release()
	count.release()
	releaseIfNot(tg, target)
	releaseIfNot(lg, logits)
	return out
}
