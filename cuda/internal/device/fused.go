package device

import (
	"github.com/goaccel/goaccel/tensors/backend"
)

// convArg is the kernels' Conv struct.
type convArg struct{ C, H, W, KH, KW, Stride, Pad, OH, OW int64 }

// avgPoolArg is the kernels' AvgPool struct.
type avgPoolArg struct {
	Planes, H, W, OH, OW, KH, KW, SH, SW, PH, PW, IncludePad, Divisor, Adaptive int64
}

func poolArg(p backend.AvgPoolParams) avgPoolArg {
	return avgPoolArg{int64(p.Planes), int64(p.H), int64(p.W), int64(p.OH), int64(p.OW), int64(p.KH), int64(p.KW),
		int64(p.SH), int64(p.SW), int64(p.PH), int64(p.PW), int64(u8(p.CountIncludePad)), int64(p.Divisor), int64(u8(p.Adaptive))}
}

// adadeltaArg, rmspropArg and adagradArg are the kernels' AdadeltaScalars, RMSpropScalars and
// AdagradScalars structs.
type adadeltaArg struct{ LR, Rho, ORho, Eps, WD float32 }

type rmspropArg struct {
	LR, Alpha, OAlpha, Eps, WD, Mom float32
	Centered                        uint8
}

type adagradArg struct{ CLR, Eps, WD float32 }

// sgdArg is the kernels' SGDScalars struct.
type sgdArg struct {
	LR, WD, Mom, Damp float32
	Nesterov, First   uint8
}

// LayerNorm implements backend.LayerNormOps.
func (d *Device) LayerNorm(y, mean, rstd, x, w, b *backend.Buffer, rows, n int, eps float64) {
	d.run("layer norm", func() error {
		return d.launch("layernorm"+suffix(x.DType), rowsGrid(int64(rows)), y.Ptr, mean.Ptr, rstd.Ptr, x.Ptr, addr(w, 0), addr(b, 0), int64(rows), int64(n), eps)
	})
}

// LayerNormGrad implements backend.LayerNormOps: one kernel for dx (a block per row), one for
// dw and db (a thread per column, rows in order).
func (d *Device) LayerNormGrad(dx, dw, db, gy, x, mean, rstd, w *backend.Buffer, rows, n int) {
	s := suffix(x.DType)
	d.run("layer norm gradient", func() error {
		if dx != nil {
			if err := d.launch("layernorm_grad_dx"+s, rowsGrid(int64(rows)), dx.Ptr, gy.Ptr, x.Ptr, mean.Ptr, rstd.Ptr, addr(w, 0), int64(rows), int64(n)); err != nil {
				return err
			}
		}
		if dw == nil && db == nil {
			return nil
		}
		return d.launch("layernorm_grad_wb"+s, blocksFor(int64(n)), addr(dw, 0), addr(db, 0), gy.Ptr, x.Ptr, mean.Ptr, rstd.Ptr, int64(rows), int64(n))
	})
}

// CrossEntropy implements backend.CrossEntropyOps. A bad target is reported by the kernel and
// panics at the next read-back (the device cannot stop the program itself).
func (d *Device) CrossEntropy(loss, prob, count, logits, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	d.run("cross entropy", func() error {
		if count != nil {
			if err := d.drv.Memset32(count.Ptr, 0, count.DType.Size()/4, d.stream); err != nil {
				return err
			}
		}
		return d.launch("xent"+suffix(logits.DType), rowsGrid(int64(rows)), loss.Ptr, prob.Ptr, addr(count, 0), logits.Ptr, target.Ptr,
			int64(rows), int64(classes), ignore, smoothing, d.errBuf)
	})
}

// CrossEntropyGrad implements backend.CrossEntropyOps.
func (d *Device) CrossEntropyGrad(dlogits, gl, prob, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	d.run("cross entropy gradient", func() error {
		return d.launch("xent_grad"+suffix(prob.DType), blocksFor(int64(rows*classes)), dlogits.Ptr, gl.Ptr, int64(gl.Len), prob.Ptr, target.Ptr,
			int64(rows), int64(classes), ignore, smoothing)
	})
}

// sized is the element-size suffix of the indexing kernels that move any type.
func sized(dt backend.DType) string {
	return map[int]string{2: "_2", 4: "_4", 8: "_8"}[dt.Size()]
}

// IndexSelect implements backend.IndexOps.
func (d *Device) IndexSelect(dst, src, idx *backend.Buffer, outer, n, inner int) {
	m := idx.Len
	d.run("index select", func() error {
		return d.launch("index_select"+sized(src.DType), blocksFor(int64(outer*m*inner)), dst.Ptr, src.Ptr, idx.Ptr,
			int64(outer), int64(n), int64(m), int64(inner), d.errBuf)
	})
}

// IndexAdd implements backend.IndexOps.
func (d *Device) IndexAdd(dst, src, idx *backend.Buffer, outer, n, inner int) {
	m := idx.Len
	d.run("index add", func() error {
		return d.launch("index_add"+suffix(dst.DType), blocksFor(int64(outer*m*inner)), dst.Ptr, src.Ptr, idx.Ptr,
			int64(outer), int64(n), int64(m), int64(inner), d.errBuf)
	})
}

// Gather implements backend.IndexOps.
func (d *Device) Gather(dst, src, idx *backend.Buffer, outer, n, m, inner int) {
	d.run("gather", func() error {
		return d.launch("gather"+sized(src.DType), blocksFor(int64(outer*m*inner)), dst.Ptr, src.Ptr, idx.Ptr,
			int64(outer), int64(n), int64(m), int64(inner), d.errBuf)
	})
}

// ScatterAdd implements backend.IndexOps.
func (d *Device) ScatterAdd(dst, src, idx *backend.Buffer, outer, n, m, inner int) {
	d.run("scatter add", func() error {
		return d.launch("scatter_add"+suffix(dst.DType), blocksFor(int64(outer*m*inner)), dst.Ptr, src.Ptr, idx.Ptr,
			int64(outer), int64(n), int64(m), int64(inner), d.errBuf)
	})
}

// Im2col implements backend.ConvOps.
func (d *Device) Im2col(col *backend.Buffer, colOff, ldCol int, x *backend.Buffer, xOff, c, h, w, kh, kw, stride, pad, oh, ow int) {
	g := convArg{int64(c), int64(h), int64(w), int64(kh), int64(kw), int64(stride), int64(pad), int64(oh), int64(ow)}
	d.run("im2col", func() error {
		return d.launch("im2col"+suffix(x.DType), blocksFor(int64(c*kh*kw*oh*ow)), addr(col, colOff), int64(ldCol), addr(x, xOff), g)
	})
}

// Col2im implements backend.ConvOps.
func (d *Device) Col2im(dx *backend.Buffer, xOff int, col *backend.Buffer, colOff, ldCol, c, h, w, kh, kw, stride, pad, oh, ow int) {
	g := convArg{int64(c), int64(h), int64(w), int64(kh), int64(kw), int64(stride), int64(pad), int64(oh), int64(ow)}
	d.run("col2im", func() error {
		return d.launch("col2im"+suffix(dx.DType), blocksFor(int64(c*h*w)), addr(dx, xOff), addr(col, colOff), int64(ldCol), g)
	})
}

// Conv2d implements backend.Conv2dOps: the im2col kernel and cuBLAS, one group of images after
// another on the device's stream.
func (d *Device) Conv2d(lowp backend.DType, y, x, w, b *backend.Buffer, p backend.ConvParams) {
	backend.Conv2dByColumns(d, lowp, y, x, w, b, p)
}

// Conv2dGrad implements backend.Conv2dOps as Conv2d does.
func (d *Device) Conv2dGrad(lowp backend.DType, gx, gw, gy, x, w *backend.Buffer, p backend.ConvParams) {
	backend.Conv2dGradByColumns(d, lowp, gx, gw, gy, x, w, p)
}

// MaxPool2d implements backend.PoolOps.
func (d *Device) MaxPool2d(y, arg, x *backend.Buffer, planes, h, w, k, stride, oh, ow int) {
	d.run("max pool", func() error {
		return d.launch("maxpool"+suffix(x.DType), blocksFor(int64(planes*oh*ow)), y.Ptr, arg.Ptr, x.Ptr,
			int64(planes), int64(h), int64(w), int64(k), int64(stride), int64(oh), int64(ow))
	})
}

// MaxPool2dGrad implements backend.PoolOps.
func (d *Device) MaxPool2dGrad(dx, gy, arg *backend.Buffer, planes, h, w, k, stride, oh, ow int) {
	d.run("max pool gradient", func() error {
		return d.launch("maxpool_grad"+suffix(dx.DType), blocksFor(int64(planes*h*w)), dx.Ptr, gy.Ptr, arg.Ptr,
			int64(planes), int64(h), int64(w), int64(k), int64(stride), int64(oh), int64(ow))
	})
}

// AvgPool2d implements backend.AvgPoolOps.
func (d *Device) AvgPool2d(y, x *backend.Buffer, p backend.AvgPoolParams) {
	d.run("average pool", func() error {
		return d.launch("avgpool"+suffix(x.DType), blocksFor(int64(p.Planes*p.OH*p.OW)), y.Ptr, x.Ptr, poolArg(p))
	})
}

// AvgPool2dGrad implements backend.AvgPoolOps.
func (d *Device) AvgPool2dGrad(dx, gy *backend.Buffer, p backend.AvgPoolParams) {
	d.run("average pool gradient", func() error {
		return d.launch("avgpool_grad"+suffix(gy.DType), blocksFor(int64(p.Planes*p.H*p.W)), dx.Ptr, gy.Ptr, poolArg(p))
	})
}

// AdamStep implements backend.OptimizerOps: one launch per parameter.
func (d *Device) AdamStep(w, g, m, v []backend.Vec, s []backend.AdamScalars) {
	d.run("Adam step", func() error {
		for i := range w {
			n := int64(w[i].Len)
			if err := d.launch("adam_f32", blocksFor(n), vaddr(w[i]), vaddr(g[i]), vaddr(m[i]), vaddr(v[i]), n, s[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// SGDStep implements backend.OptimizerOps.
func (d *Device) SGDStep(w, g, buf []backend.Vec, s []backend.SGDScalars) {
	d.run("SGD step", func() error {
		for i := range w {
			n := int64(w[i].Len)
			c := s[i]
			a := sgdArg{LR: c.LR, WD: c.WeightDecay, Mom: c.Momentum, Damp: c.OneMinusDampening, Nesterov: u8(c.Nesterov), First: u8(c.First)}
			if err := d.launch("sgd_f32", blocksFor(n), vaddr(w[i]), vaddr(g[i]), vaddr(buf[i]), n, a); err != nil {
				return err
			}
		}
		return nil
	})
}

// AdadeltaStep implements backend.AdaptiveOptimizerOps: one launch per parameter.
func (d *Device) AdadeltaStep(w, g, sq, acc []backend.Vec, s []backend.AdadeltaScalars) {
	d.run("Adadelta step", func() error {
		for i := range w {
			n := int64(w[i].Len)
			c := s[i]
			a := adadeltaArg{c.LR, c.Rho, c.OneMinusRho, c.Eps, c.WeightDecay}
			if err := d.launch("adadelta_f32", blocksFor(n), vaddr(w[i]), vaddr(g[i]), vaddr(sq[i]), vaddr(acc[i]), n, a); err != nil {
				return err
			}
		}
		return nil
	})
}

// RMSpropStep implements backend.AdaptiveOptimizerOps.
func (d *Device) RMSpropStep(w, g, sq, mom, avg []backend.Vec, s []backend.RMSpropScalars) {
	d.run("RMSprop step", func() error {
		for i := range w {
			n := int64(w[i].Len)
			c := s[i]
			a := rmspropArg{c.LR, c.Alpha, c.OneMinusAlpha, c.Eps, c.WeightDecay, c.Momentum, u8(c.Centered)}
			if err := d.launch("rmsprop_f32", blocksFor(n), vaddr(w[i]), vaddr(g[i]), vaddr(sq[i]), vaddr(mom[i]), vaddr(avg[i]), n, a); err != nil {
				return err
			}
		}
		return nil
	})
}

// AdagradStep implements backend.AdaptiveOptimizerOps.
func (d *Device) AdagradStep(w, g, sum []backend.Vec, s []backend.AdagradScalars) {
	d.run("Adagrad step", func() error {
		for i := range w {
			n := int64(w[i].Len)
			c := s[i]
			if err := d.launch("adagrad_f32", blocksFor(n), vaddr(w[i]), vaddr(g[i]), vaddr(sum[i]), n, adagradArg{c.CLR, c.Eps, c.WeightDecay}); err != nil {
				return err
			}
		}
		return nil
	})
}

func u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// vaddr is a vector's first element (0 for an empty vector).
func vaddr(v backend.Vec) uintptr {
	if v.Buf == nil {
		return 0
	}
	return addr(v.Buf, v.Off)
}

// SumSquares implements backend.ForeachOps.
func (d *Device) SumSquares(dst *backend.Buffer, xs []backend.Vec) {
	d.run("sum of squares", func() error {
		if err := d.drv.Memset32(dst.Ptr, 0, 2, d.stream); err != nil {
			return err
		}
		for _, x := range xs {
			n := int64(x.Len)
			if err := d.launch("sumsq_f32", blocksFor(n), dst.Ptr, vaddr(x), n); err != nil {
				return err
			}
		}
		return nil
	})
}

// ScaleCheck implements backend.ForeachOps.
func (d *Device) ScaleCheck(xs []backend.Vec, s float64, found *backend.Buffer) {
	d.run("scale and check", func() error {
		for _, x := range xs {
			n := int64(x.Len)
			if err := d.launch("scale_check_f32", blocksFor(n), vaddr(x), n, float32(s), found.Ptr); err != nil {
				return err
			}
		}
		return nil
	})
}
