package tensors

import (
	"fmt"
	"math"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// unaryRaw applies an elementwise kernel without autograd.
func unaryRaw(op backend.UnaryOp, t *Tensor, p, q float64) *Tensor {
	x := t.dense()
	out := empty(x.dtype, x.dev, x.shape...)
	x.be().Unary(op, out.buf(), x.buf(), p, q)
	releaseIfNot(x, t)
	return out
}

// channelShape is [1, C, 1, …] for x's rank: a per-channel tensor broadcast against x.
func channelShape(x *Tensor) []int {
	s := make([]int, x.Dim())
	for i := range s {
		s[i] = 1
	}
	s[1] = x.shape[1]
	return s
}

// reduceDims are the dims BatchNorm reduces over: all but the channels (dim 1).
func reduceDims(x *Tensor) []int {
	ds := []int{0}
	for d := 2; d < x.Dim(); d++ {
		ds = append(ds, d)
	}
	return ds
}

func checkChannels(op string, x *Tensor, ts ...*Tensor) {
	if x.Dim() < 2 {
		panic(fmt.Sprintf("tensors: %s: need [N, C, …] input, have shape %v", op, x.shape))
	}
	for _, t := range ts {
		if t != nil && !slices.Equal(t.shape, []int{x.shape[1]}) {
			panic(fmt.Sprintf("tensors: %s: per-channel tensor of shape %v for input %v (want [%d])", op, t.shape, x.shape, x.shape[1]))
		}
	}
	if !x.dtype.isFloat() {
		panic(fmt.Sprintf("tensors: %s: need a floating-point input, have %s", op, x.dtype))
	}
	checkDevices(op, append([]*Tensor{x}, ts...)...)
}

// BatchNorm normalises x ([N, C, …]) per channel, as PyTorch's F.batch_norm(x, runningMean,
// runningVar, weight, bias, training, momentum, eps): in training, with the batch's mean and
// (biased) variance over every dim but 1, updating runningMean and runningVar in place when they
// are given (running ← (1−momentum)·running + momentum·batch, the variance unbiased); otherwise
// with runningMean and runningVar. weight and bias (per channel) may be nil. The gradient flows
// to x, weight and bias (through the batch statistics in training).
func BatchNorm(x, runningMean, runningVar, weight, bias *Tensor, training bool, momentum, eps float64) *Tensor {
	defer opSpan("BatchNorm", x, weight, bias).End()
	checkChannels("BatchNorm", x, runningMean, runningVar, weight, bias)
	if !training {
		if runningMean == nil || runningVar == nil {
			panic("tensors: BatchNorm: evaluation needs the running mean and variance (or training=true)")
		}
		return batchNormWith(x, runningMean, runningVar, weight, bias, eps)
	}
	return batchNormTrain("BatchNorm", x, runningMean, runningVar, weight, bias, momentum, eps, nil)
}

// SyncBatchNorm is BatchNorm in training over a batch split across processes, as PyTorch's
// SyncBatchNorm: the statistics are those of every process's x together. allReduce must replace a
// float32 tensor on x's device with its sum over the processes (every process calls it in the
// same order: twice in the forward pass, once in the backward pass).
func SyncBatchNorm(x, runningMean, runningVar, weight, bias *Tensor, momentum, eps float64, allReduce func(*Tensor)) *Tensor {
	defer opSpan("SyncBatchNorm", x, weight, bias).End()
	checkChannels("SyncBatchNorm", x, runningMean, runningVar, weight, bias)
	if allReduce == nil {
		panic("tensors: SyncBatchNorm: allReduce is nil (use BatchNorm on one process)")
	}
	return batchNormTrain("SyncBatchNorm", x, runningMean, runningVar, weight, bias, momentum, eps, allReduce)
}

// rsqrtRaw returns 1/√(t + eps) elementwise, without autograd (PyTorch's invstd).
func rsqrtRaw(t *Tensor, eps float64) *Tensor {
	s := unaryRaw(backend.AddScalar, t, eps, 0)
	r := unaryRaw(backend.Sqrt, s, 0, 0)
	s.release()
	one := full(r.dtype, r.dev, 1)
	out := binary(backend.Div, "BatchNorm", one, r)
	releaseAll(one, r)
	return out
}

// batchNormWith normalises with given statistics, through differentiable ops.
func batchNormWith(x, mean, variance, weight, bias *Tensor, eps float64) *Tensor {
	cs := channelShape(x)
	dt := x.computable().dtype
	v := variance.AsType(dt)
	rstd := rsqrtRaw(v, eps)
	releaseIfNot(v, variance)
	scale := rstd.Reshape(cs...)
	if weight != nil {
		scale = handOver(scale, scale.Mul(weight.Reshape(cs...)))
	}
	m := mean.AsType(dt)
	xm := x.Sub(m.Reshape(cs...))
	releaseIfNot(m, mean)
	y := xm.Mul(scale)
	releaseAll(xm, scale, rstd)
	if bias != nil {
		y = handOver(y, y.Add(bias.Reshape(cs...)))
	}
	return y
}

// batchNormTrain normalises with the batch's statistics (summed across processes by allReduce
// when it is set), updates the running ones, and records the gradient:
//
//	x̂ = (x − μ)·r,  r = 1/√(σ² + ε);  y = x̂·w + b
//	∂x = r·w·(g − Σg/n − x̂·Σ(g·x̂)/n),  ∂w = Σ(g·x̂),  ∂b = Σg
//
// (sums per channel, n the number of values per channel, over every process's batch for ∂x;
// ∂w and ∂b are this process's, which data-parallel training then averages).
func batchNormTrain(op string, x, runningMean, runningVar, weight, bias *Tensor, momentum, eps float64, allReduce func(*Tensor)) *Tensor {
	xc := x.dense()
	dt := xc.dtype
	cs := channelShape(xc)
	dims := reduceDims(xc)
	c := xc.shape[1]
	local := xc.Numel() / max(c, 1)
	if local == 0 {
		panic(fmt.Sprintf("tensors: %s: empty batch %v", op, x.shape))
	}
	// per divides a per-channel sum by the number of values per channel: this process's, or,
	// across processes, the reduced count (kept on the device: no read-back per layer).
	n := float64(local)
	var count *Tensor
	per := func(t *Tensor) *Tensor {
		if count == nil {
			return unaryRaw(backend.MulScalar, t, 1/n, 0)
		}
		return binary(backend.Div, op, t, count)
	}
	sum := sumRaw(xc, dims)
	if allReduce != nil {
		// Round 1: the batch's size and sum, so that every process centres on the global mean;
		// round 2 (below): the squared deviations from it, whose terms are non-negative.
		st := Cat([]*Tensor{full(dt, xc.dev, n, c), sum.Reshape(c)}, 0)
		allReduce(st)
		count = st.Slice(0, 0, c).Reshape(cs...).contig()
		sum = handOver(sum, st.Slice(0, c, 2*c).Reshape(cs...).contig())
		st.release()
	}
	mean := per(sum)
	sum.release()
	xm := binary(backend.Sub, op, xc, mean)
	sq := binary(backend.Mul, op, xm, xm)
	m2 := sumRaw(sq, dims)
	sq.release()
	if allReduce != nil {
		flat := m2.Reshape(c).contig()
		allReduce(flat)
		m2 = handOver(m2, flat.Reshape(cs...))
		flat.release()
	}
	variance := per(m2)
	m2.release()
	rstd := rsqrtRaw(variance, eps)
	xhat := binary(backend.Mul, op, xm, rstd)
	xm.release()
	var w, b *Tensor
	if weight != nil {
		w = weight.AsType(dt).Reshape(cs...)
	}
	if bias != nil {
		b = bias.AsType(dt).Reshape(cs...)
	}
	y := xhat.view(xhat.shape, xhat.strides, xhat.offset)
	if w != nil {
		y = handOver(y, binary(backend.Mul, op, xhat, w))
	}
	if b != nil {
		y = handOver(y, binary(backend.Add, op, y, b))
	}
	if runningMean != nil && runningVar != nil {
		updateRunning(runningMean, mean, momentum)
		// The unbiased variance: σ²·n/(n−1).
		var unbiased *Tensor
		if count == nil {
			unbiased = unaryRaw(backend.MulScalar, variance, n/math.Max(n-1, 1), 0)
		} else {
			less := unaryRaw(backend.AddScalar, count, -1, 0)
			ratio := binary(backend.Div, op, count, less)
			unbiased = binary(backend.Mul, op, variance, ratio)
			releaseAll(less, ratio)
		}
		updateRunning(runningVar, unbiased, momentum)
		unbiased.release()
	}
	mean.release()
	variance.release()
	releaseIfNot(xc, x)
	record(y, op, []*Tensor{x, weight, bias}, func(g *Tensor) []*Tensor {
		gc := g.dense()
		var dx, dw, db *Tensor
		gs := sumRaw(gc, dims) // Σg
		gx := binary(backend.Mul, op, gc, xhat)
		gxs := sumRaw(gx, dims) // Σ(g·x̂)
		gx.release()
		if bias != nil && bias.requiresGrad {
			db = gs.Reshape(c).contig()
		}
		if weight != nil && weight.requiresGrad {
			dw = gxs.Reshape(c).contig()
		}
		if x.requiresGrad {
			if allReduce != nil {
				st := Cat([]*Tensor{gs.Reshape(c), gxs.Reshape(c)}, 0)
				allReduce(st)
				gs = handOver(gs, st.Slice(0, 0, c).Reshape(cs...).contig())
				gxs = handOver(gxs, st.Slice(0, c, 2*c).Reshape(cs...).contig())
				st.release()
			}
			k := rstd
			if w != nil {
				k = binary(backend.Mul, op, rstd, w)
			}
			mg, mgx := per(gs), per(gxs)
			t := binary(backend.Mul, op, xhat, mgx)
			u := binary(backend.Sub, op, gc, t)
			v := binary(backend.Sub, op, u, mg)
			dx = binary(backend.Mul, op, v, k)
			releaseAll(mg, mgx, t, u, v)
			releaseIfNot(k, rstd)
		}
		gs.release()
		gxs.release()
		releaseIfNot(gc, g)
		return []*Tensor{dx, dw, db}
	}, xhat, rstd, w, count)
	xhat.release()
	rstd.release()
	count.release()
	releaseIfNot(w, weight)
	releaseIfNot(b, bias)
	return y
}

func releaseAll(ts ...*Tensor) {
	for _, t := range ts {
		t.release()
	}
}

// updateRunning sets running ← (1−momentum)·running + momentum·batch in place (batch broadcast to
// running's shape), outside autograd.
func updateRunning(running, batch *Tensor, momentum float64) {
	r := unaryRaw(backend.MulScalar, running, 1-momentum, 0)
	bt := unaryRaw(backend.MulScalar, batch, momentum, 0)
	flat := bt.view(running.shape, contiguousStrides(running.shape), 0)
	s := binary(backend.Add, "BatchNorm", r, flat)
	running.be().Copy(running.strided(), s.strided(), running.shape)
	keep(running)
	releaseAll(r, bt, flat, s)
}

// GroupNorm normalises x ([N, C, …]) over groups of C/groups channels (and every dim after
// them), then scales and shifts each channel by weight and bias (either may be nil), as PyTorch's
// F.group_norm(x, groups, weight, bias, eps).
func GroupNorm(x *Tensor, groups int, weight, bias *Tensor, eps float64) *Tensor {
	defer opSpan("GroupNorm", x, weight, bias).End()
	checkChannels("GroupNorm", x, weight, bias)
	c := x.shape[1]
	if groups < 1 || c%groups != 0 {
		panic(fmt.Sprintf("tensors: GroupNorm: %d channels of input %v do not split into %d groups", c, x.shape, groups))
	}
	per := x.Numel() / max(x.shape[0]*groups, 1)
	xr := x.Reshape(x.shape[0], groups, per)
	nr := LayerNorm(xr, []int{per}, nil, nil, eps)
	y := nr.Reshape(x.shape...)
	releaseIfNot(xr, x)
	nr.release()
	cs := channelShape(x)
	if weight != nil {
		y = handOver(y, y.Mul(weight.Reshape(cs...)))
	}
	if bias != nil {
		y = handOver(y, y.Add(bias.Reshape(cs...)))
	}
	return y
}

// RMSNorm scales x by the reciprocal root mean square over its trailing normalizedShape dims, then
// by weight (of that shape; nil for none), as PyTorch's F.rms_norm(x, normalizedShape, weight,
// eps): y = x / √(mean(x²) + ε) · weight. PyTorch's default ε is the machine epsilon of x's type
// (1.1920929e-07 for float32).
func RMSNorm(x *Tensor, normalizedShape []int, weight *Tensor, eps float64) *Tensor {
	defer opSpan("RMSNorm", x, weight).End()
	k := len(normalizedShape)
	if k == 0 || x.Dim() < k || !slices.Equal(x.shape[x.Dim()-k:], normalizedShape) {
		panic(fmt.Sprintf("tensors: RMSNorm: input shape %v does not end with normalized shape %v", x.shape, normalizedShape))
	}
	if weight != nil && !slices.Equal(weight.shape, normalizedShape) {
		panic(fmt.Sprintf("tensors: RMSNorm: weight shape %v does not match normalized shape %v", weight.shape, normalizedShape))
	}
	checkDevices("RMSNorm", x, weight)
	dims := make([]int, k)
	for i := range dims {
		dims[i] = x.Dim() - k + i
	}
	sq := x.Mul(x)
	ms := sq.MeanDims(true, dims...)
	sq.Release()
	rms := ms.AddScalar(eps).Sqrt()
	ms.Release()
	y := x.Div(rms)
	rms.Release()
	if weight != nil {
		y = handOver(y, y.Mul(weight))
	}
	return y
}
