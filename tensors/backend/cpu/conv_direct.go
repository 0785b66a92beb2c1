package cpu

import (
	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/direct"
	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/parallel"
)

// directShape returns p as the direct kernels' shape, and whether they run it: stride 1,
// float32 throughout (no autocast rounding), a CPU with AVX-512 or NEON, and for an input gradient a
// padding below the filter's size.
func (c *CPU) directShape(lowp backend.DType, x, w *backend.Buffer, p backend.ConvParams, inputGrad bool) (direct.Shape, bool) {
	s := direct.Shape{C: p.C, H: p.H, W: p.W, Out: p.Out, KH: p.KH, KW: p.KW, PadH: p.Pad, PadW: p.Pad}
	ok := direct.Available() && !c.columnsOnly && p.Stride == 1 && convFloat32(lowp, x, w) &&
		(!inputGrad || direct.InputGradFits(s))
	return s, ok
}

// conv2dDirect is Conv2d with the direct kernels (or Winograd's F(2×2, 3×3) for 3×3 filters), an
// image per task.
func (c *CPU) conv2dDirect(y, x, w, b *backend.Buffer, p backend.ConvParams, s direct.Shape) {
	var bias []float32
	if b != nil {
		bias = b.F32
	}
	plan := direct.Forward(s, w.F32, bias)
	scratch := c.scratch(convWorkers(p.Batch, p), plan.ScratchLen())
	defer c.releaseAll(scratch)
	image, out := p.C*p.H*p.W, p.Out*p.Pixels()
	parallel.RunNear(len(scratch), p.Batch, func(wk, n int) {
		plan.Image(y.F32[n*out:][:out], x.F32[n*image:][:image], scratch[wk].F32)
	})
}

// conv2dGradDirect is Conv2dGrad with the direct kernels. Each task sums the weight gradient
// of a fixed run of images into its own accumulator and the accumulators are added in task
// order, so the result does not depend on the number of cores.
func (c *CPU) conv2dGradDirect(gx, gw, gy, x, w *backend.Buffer, p backend.ConvParams, s direct.Shape) {
	var weights direct.WeightGradPlan
	var inputs direct.ImagePlan
	need := 0
	if gw != nil {
		weights = direct.WeightGrad(s)
		need = weights.ScratchLen()
	}
	if gx != nil {
		inputs = direct.InputGrad(s, w.F32)
		need = max(need, inputs.ScratchLen())
	}
	tasks := p.Batch
	var accs []*backend.Buffer
	if weights != nil {
		tasks = weightGradTasks(p.Batch, weights.AccLen())
		accs = make([]*backend.Buffer, tasks)
		for t := range accs {
			accs[t] = c.Alloc(backend.F32, weights.AccLen())
		}
		defer c.releaseAll(accs)
	}
	scratch := c.scratch(convWorkers(tasks, p), need)
	defer c.releaseAll(scratch)
	image, out := p.C*p.H*p.W, p.Out*p.Pixels()
	parallel.RunNear(len(scratch), tasks, func(wk, t int) {
		for n := t * p.Batch / tasks; n < (t+1)*p.Batch/tasks; n++ {
			xn, gyn := x.F32[n*image:][:image], gy.F32[n*out:][:out]
			if weights != nil {
				weights.AddWeightGrad(accs[t].F32, xn, gyn, scratch[wk].F32)
			}
			if inputs != nil {
				inputs.Image(gx.F32[n*image:][:image], gyn, scratch[wk].F32)
			}
		}
	})
	if weights != nil {
		sums := make([][]float32, len(accs))
		for t, a := range accs {
			sums[t] = a.F32
		}
		weights.WeightGrad(gw.F32, sums...)
	}
}

// scratch allocates a buffer of n float32s (not zeroed) for each of workers cores.
func (c *CPU) scratch(workers, n int) []*backend.Buffer {
	s := make([]*backend.Buffer, workers)
	for i := range s {
		s[i] = c.AllocUninit(backend.F32, n)
	}
	return s
}

func (c *CPU) releaseAll(bufs []*backend.Buffer) {
	for _, b := range bufs {
		c.Release(b)
	}
}
