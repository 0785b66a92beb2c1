package cpu

import (
	"runtime"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/gemm"
	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/parallel"
)

// Conv2d implements backend.Conv2dOps. Stride-1 float32 convolutions run the direct kernels
// (package direct) where the CPU has AVX-512 or NEON. Other float32 convolutions share their groups of
// images (backend.ConvParams.ImagesPerGemm) out to the cores: each core unfolds its images
// into its own column buffer, which stays in its cache for the gemm that follows. Other types
// and autocast's half-precision products take the composed path.
func (c *CPU) Conv2d(lowp backend.DType, y, x, w, b *backend.Buffer, p backend.ConvParams) {
	if !convFloat32(lowp, x, w) || b != nil && b.DType != backend.F32 {
		backend.Conv2dByColumns(c, lowp, y, x, w, b, p)
		return
	}
	if s, ok := c.directShape(lowp, x, w, p, false); ok {
		c.conv2dDirect(y, x, w, b, p, s)
		return
	}
	o, l, ckk := p.Out, p.Pixels(), p.ColumnRows()
	ch := p.ImagesPerGemm()
	groups := ceilDiv(p.Batch, ch)
	s := c.convScratch(convWorkers(groups, p), ckk*ch*l, o*ch*l, ch > 1)
	defer s.release(c)
	parallel.Run(len(s.col), groups, func(wk, g int) {
		n0 := g * ch
		nc := min(ch, p.Batch-n0)
		cols := nc * l
		col := s.col[wk].F32
		unfoldF32(col, x.F32, p, n0, nc)
		if nc == 1 {
			gemm.SgemmSerial(false, false, o, l, ckk, 1, w.F32, ckk, col, l, 0, y.F32[n0*o*l:], l)
		} else {
			tmp := s.tmp[wk].F32
			gemm.SgemmSerial(false, false, o, cols, ckk, 1, w.F32, ckk, col, cols, 0, tmp, cols)
			reorder(y.F32[n0*o*l:], tmp, nc, o, l, true)
		}
		if b != nil {
			// While these outputs are still in this core's cache.
			for i := 0; i < nc*o; i++ {
				row := y.F32[(n0*o+i)*l:][:l]
				addScalar(row, b.F32[i%o])
			}
		}
	})
}

// Conv2dGrad implements backend.Conv2dOps, in parallel as Conv2d. Each task sums the weight
// gradient of a fixed run of image groups into its own buffer and the buffers are added in
// task order, so the result does not depend on the number of cores or on which core ran what.
func (c *CPU) Conv2dGrad(lowp backend.DType, gx, gw, gy, x, w *backend.Buffer, p backend.ConvParams) {
	if !convFloat32(lowp, x, w) {
		backend.Conv2dGradByColumns(c, lowp, gx, gw, gy, x, w, p)
		return
	}
	if s, ok := c.directShape(lowp, x, w, p, gx != nil); ok {
		c.conv2dGradDirect(gx, gw, gy, x, w, p, s)
		return
	}
	o, l, ckk := p.Out, p.Pixels(), p.ColumnRows()
	ch := p.ImagesPerGemm()
	groups := ceilDiv(p.Batch, ch)
	tasks := groups
	var partial []*backend.Buffer
	if gw != nil {
		tasks = weightGradTasks(groups, ckk*o)
		partial = c.scratch(tasks, ckk*o)
	}
	s := c.convScratch(convWorkers(tasks, p), ckk*ch*l, o*ch*l, ch > 1)
	defer s.release(c)
	image := p.C * p.H * p.W
	parallel.Run(len(s.col), tasks, func(wk, t int) {
		col := s.col[wk].F32
		for g := t * groups / tasks; g < (t+1)*groups/tasks; g++ {
			n0 := g * ch
			nc := min(ch, p.Batch-n0)
			cols := nc * l
			// gs addresses this group's output gradient as [o, cols]: in place for one image,
			// else reordered from [nc, o, l].
			gs := gy.F32[n0*o*l:]
			if nc > 1 {
				gs = s.tmp[wk].F32
				reorder(gy.F32[n0*o*l:], gs, nc, o, l, false)
			}
			if gw != nil {
				// gwᵀ [ckk, o] += col·gsᵀ: ckk rows and o columns tile the kernel better than
				// o rows and ckk columns (see backend.Conv2dGradByColumns).
				unfoldF32(col, x.F32, p, n0, nc)
				beta := float32(1)
				if g == t*groups/tasks {
					beta = 0
				}
				gemm.SgemmSerial(false, true, ckk, o, cols, 1, col, cols, gs, cols, beta, partial[t].F32, o)
			}
			if gx != nil {
				gemm.SgemmSerial(true, false, ckk, cols, o, 1, w.F32, ckk, gs, cols, 0, col, cols)
				clear(gx.F32[n0*image : (n0+nc)*image])
				for i := 0; i < nc; i++ {
					im2col(col[i*l:], cols, gx.F32[(n0+i)*image:], p.C, p.H, p.W, p.KH, p.KW, p.Stride, p.Pad, p.OH, p.OW, true)
				}
			}
		}
	})
	if gw == nil {
		return
	}
	sum := partial[0].F32
	for _, q := range partial[1:] {
		for i, v := range q.F32 {
			sum[i] += v
		}
	}
	// sum is gwᵀ [ckk, o]; gw is [o, ckk].
	for r := 0; r < ckk; r++ {
		for oo, v := range sum[r*o : (r+1)*o] {
			gw.F32[oo*ckk+r] = v
		}
	}
	c.releaseAll(partial)
}

// reorder copies nc images' outputs between the NCHW order [nc, o, l] of images and the
// order [o, nc·l] of a gemm over the images side by side: into images when toImages, else out
// of them.
func reorder(images, gemmOrder []float32, nc, o, l int, toImages bool) {
	for i := 0; i < nc; i++ {
		for oo := 0; oo < o; oo++ {
			im, gm := images[(i*o+oo)*l:][:l], gemmOrder[(oo*nc+i)*l:][:l]
			if toImages {
				copy(im, gm)
			} else {
				copy(gm, im)
			}
		}
	}
}

// addScalar adds s to every element of row.
func addScalar(row []float32, s float32) {
	done := vecF32(backend.Add, row, row, nil, s)
	for i := done; i < len(row); i++ {
		row[i] += s
	}
}

// convFloat32 reports whether a convolution runs in float32 throughout (no autocast rounding).
func convFloat32(lowp backend.DType, x, w *backend.Buffer) bool {
	return x.DType == backend.F32 && w.DType == backend.F32 && lowp != backend.BF16 && lowp != backend.F16
}

// convWorkers is how many goroutines a convolution of tasks independent tasks uses: one per
// core, fewer for small problems, where starting goroutines would cost more than they win.
func convWorkers(tasks int, p backend.ConvParams) int {
	flops := 2 * p.Out * p.Pixels() * p.ColumnRows() * p.Batch
	return max(1, min(tasks, runtime.GOMAXPROCS(0), flops/(1<<20)))
}

// unfoldF32 writes images n0..n0+nc of x side by side into col [ckk, nc·l].
func unfoldF32(col, x []float32, p backend.ConvParams, n0, nc int) {
	l, image := p.Pixels(), p.C*p.H*p.W
	for i := 0; i < nc; i++ {
		im2col(col[i*l:], nc*l, x[(n0+i)*image:], p.C, p.H, p.W, p.KH, p.KW, p.Stride, p.Pad, p.OH, p.OW, false)
	}
}

// convBuffers are each worker's column buffer and, for groups of several images, its
// reordering buffer.
type convBuffers struct{ col, tmp []*backend.Buffer }

func (c *CPU) convScratch(workers, colLen, tmpLen int, withTmp bool) convBuffers {
	s := convBuffers{col: c.scratch(workers, colLen)}
	if withTmp {
		s.tmp = c.scratch(workers, tmpLen)
	}
	return s
}

func (s convBuffers) release(c *CPU) {
	c.releaseAll(s.col)
	c.releaseAll(s.tmp)
}

// weightGradTasks is how many runs of units (images, groups of images) a convolution's weight
// gradient is summed in, one accumulator of accLen float32s each: at most 8, and at most 32 MB
// of accumulators. It depends on the shapes alone, so the sum's order does not depend on the
// number of cores.
func weightGradTasks(units, accLen int) int {
	return max(1, min(units, 8, (32<<20)/(4*accLen)))
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
