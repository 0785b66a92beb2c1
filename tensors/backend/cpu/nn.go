package cpu

import (
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend"
)

// LayerNorm implements backend.Backend.
func (c *CPU) LayerNorm(y, mean, rstd, x, w, b *backend.Buffer, rows, n int, eps float64) {
	if x.DType == backend.F64 {
		layerNorm(y.F64, mean.F64, rstd.F64, x.F64, opt64(w), opt64(b), rows, n, eps)
		return
	}
	layerNorm(y.F32, mean.F32, rstd.F32, x.F32, opt32(w), opt32(b), rows, n, eps)
}

func opt32(b *backend.Buffer) []float32 {
	if b == nil {
		return nil
	}
	return b.F32
}

func opt64(b *backend.Buffer) []float64 {
	if b == nil {
		return nil
	}
	return b.F64
}

func layerNorm[T float](y, mean, rstd, x, w, b []T, rows, n int, eps float64) {
	parallelFor(rows, rows*n*4, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := x[r*n : (r+1)*n]
			var s float64
			for _, v := range row {
				s += float64(v)
			}
			mu := s / float64(n)
			var ss float64
			for _, v := range row {
				d := float64(v) - mu
				ss += d * d
			}
			rs := 1 / math.Sqrt(ss/float64(n)+eps)
			mean[r], rstd[r] = T(mu), T(rs)
			out := y[r*n : (r+1)*n]
			for i, v := range row {
				h := T((float64(v) - mu) * rs)
				if w != nil {
					h *= w[i]
				}
				if b != nil {
					h += b[i]
				}
				out[i] = h
			}
		}
	})
}

// LayerNormGrad implements backend.Backend.
func (c *CPU) LayerNormGrad(dx, dw, db, gy, x, mean, rstd, w *backend.Buffer, rows, n int) {
	if x.DType == backend.F64 {
		layerNormGrad(opt64(dx), opt64(dw), opt64(db), gy.F64, x.F64, mean.F64, rstd.F64, opt64(w), rows, n)
		return
	}
	layerNormGrad(opt32(dx), opt32(dw), opt32(db), gy.F32, x.F32, mean.F32, rstd.F32, opt32(w), rows, n)
}

func layerNormGrad[T float](dx, dw, db, gy, x, mean, rstd, w []T, rows, n int) {
	for r := 0; r < rows; r++ {
		xr, gr := x[r*n:(r+1)*n], gy[r*n:(r+1)*n]
		mu, rs := float64(mean[r]), float64(rstd[r])
		var sg, sgx float64
		for i, g := range gr {
			xh := (float64(xr[i]) - mu) * rs
			if dw != nil {
				dw[i] += T(float64(g) * xh)
			}
			if db != nil {
				db[i] += g
			}
			gh := float64(g)
			if w != nil {
				gh *= float64(w[i])
			}
			sg += gh
			sgx += gh * xh
		}
		if dx == nil {
			continue
		}
		sg /= float64(n)
		sgx /= float64(n)
		out := dx[r*n : (r+1)*n]
		for i, g := range gr {
			xh := (float64(xr[i]) - mu) * rs
			gh := float64(g)
			if w != nil {
				gh *= float64(w[i])
			}
			out[i] = T(rs * (gh - sg - xh*sgx))
		}
	}
}

// CrossEntropy implements backend.Backend.
func (c *CPU) CrossEntropy(loss, prob, count, logits, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	if count != nil {
		n := 0
		for _, t := range target.I64[:rows] {
			if t != ignore {
				n++
			}
		}
		c.Fill(count, float64(n))
	}
	if logits.DType == backend.F64 {
		crossEntropy(loss.F64, prob.F64, logits.F64, target.I64, rows, classes, ignore, smoothing, expRow[float64])
		return
	}
	crossEntropy(loss.F32, prob.F32, logits.F32, target.I64, rows, classes, ignore, smoothing, expShiftSum)
}

func crossEntropy[T float](loss, prob, logits []T, target []int64, rows, classes int, ignore int64, eps float64,
	exps func(p, row []T, m T) float64) {
	for r := 0; r < rows; r++ {
		t := target[r]
		if t != ignore && (t < 0 || int(t) >= classes) {
			panic(fmt.Sprintf("tensors: CrossEntropy: target %d at row %d is outside [0, %d) (classes of logits)", t, r, classes))
		}
	}
	parallelFor(rows, rows*classes*16, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := logits[r*classes : (r+1)*classes]
			p := prob[r*classes : (r+1)*classes]
			m := maxT(row)
			sum := exps(p, row, m)
			var sumLogit float64
			if eps != 0 {
				for _, v := range row {
					sumLogit += float64(v)
				}
			}
			scaleT(p, T(1/sum))
			t := target[r]
			if t == ignore {
				loss[r] = 0
				continue
			}
			lse := float64(m) + math.Log(sum)
			nll := lse - float64(row[t])
			l := (1 - eps) * nll
			if eps != 0 {
				l += eps / float64(classes) * (float64(classes)*lse - sumLogit)
			}
			loss[r] = T(l)
		}
	})
}

// CrossEntropyGrad implements backend.Backend.
func (c *CPU) CrossEntropyGrad(dlogits, gl, prob, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	if prob.DType == backend.F64 {
		crossEntropyGrad(dlogits.F64, gl.F64, prob.F64, target.I64, rows, classes, ignore, smoothing)
		return
	}
	crossEntropyGrad(dlogits.F32, gl.F32, prob.F32, target.I64, rows, classes, ignore, smoothing)
}

func crossEntropyGrad[T float](d, gl, prob []T, target []int64, rows, classes int, ignore int64, eps float64) {
	u := T(eps / float64(classes))
	for r := 0; r < rows; r++ {
		out := d[r*classes : (r+1)*classes]
		t := target[r]
		if t == ignore {
			clear(out)
			continue
		}
		g := gl[0]
		if len(gl) > 1 {
			g = gl[r]
		}
		shiftScaleT(out, prob[r*classes:(r+1)*classes], u, g)
		out[t] -= g * T(1-eps)
	}
}

// Im2col implements backend.Backend.
func (c *CPU) Im2col(col *backend.Buffer, colOff, ldCol int, x *backend.Buffer, xOff, ch, h, w, kh, kw, stride, pad, oh, ow int) {
	if x.DType == backend.F64 {
		im2col(col.F64[colOff:], ldCol, x.F64[xOff:], ch, h, w, kh, kw, stride, pad, oh, ow, false)
		return
	}
	im2col(col.F32[colOff:], ldCol, x.F32[xOff:], ch, h, w, kh, kw, stride, pad, oh, ow, false)
}

// Col2im implements backend.Backend.
func (c *CPU) Col2im(dx *backend.Buffer, xOff int, col *backend.Buffer, colOff, ldCol, ch, h, w, kh, kw, stride, pad, oh, ow int) {
	if dx.DType == backend.F64 {
		im2col(col.F64[colOff:], ldCol, dx.F64[xOff:], ch, h, w, kh, kw, stride, pad, oh, ow, true)
		return
	}
	im2col(col.F32[colOff:], ldCol, dx.F32[xOff:], ch, h, w, kh, kw, stride, pad, oh, ow, true)
}

// im2col unfolds x into col (rows ldCol apart), or with back set accumulates col into x.
func im2col[T float](col []T, ldCol int, x []T, ch, h, w, kh, kw, stride, pad, oh, ow int, back bool) {
	if !back && stride == 1 && ow == w {
		im2colSameWidth(col, ldCol, x, ch, h, w, kh, kw, pad, oh)
		return
	}
	if stride == 2 && w >= 4 {
		im2colStride2(col, ldCol, x, ch, h, w, kh, kw, pad, oh, ow, back)
		return
	}
	im2colRows(col, ldCol, x, ch, h, w, kh, kw, stride, pad, oh, ow, back)
}

// splitPools hold the scratch planes of im2colStride2, of float32 and of float64.
var splitPools [2]sync.Pool

// im2colStride2 is im2colRows for stride 2. Each input row is first split into its even columns
// followed by its odd ones, so that the inputs an output row reads (every other column) lie
// side by side: every column row is then a contiguous copy, or, back, a contiguous accumulation
// into split rows that are merged into the image at the end.
func im2colStride2[T float](col []T, ldCol int, x []T, ch, h, w, kh, kw, pad, oh, ow int, back bool) {
	n := ch * h * w
	var zero T
	pool := &splitPools[unsafe.Sizeof(zero)/8]
	buf, _ := pool.Get().(*[]T)
	if buf == nil || cap(*buf) < n {
		b := make([]T, n)
		buf = &b
	}
	split := (*buf)[:n]
	defer pool.Put(buf)
	we := (w + 1) / 2 // even columns of a row
	if back {
		clear(split)
	} else {
		for r := 0; r < ch*h; r++ {
			row, out := x[r*w:(r+1)*w], split[r*w:(r+1)*w]
			ev, od := out[:we], out[we:]
			for j := range od {
				ev[j], od[j] = row[2*j], row[2*j+1]
			}
			if w%2 == 1 {
				ev[we-1] = row[w-1]
			}
		}
	}
	for ci := 0; ci < ch; ci++ {
		plane := split[ci*h*w : (ci+1)*h*w]
		for ki := 0; ki < kh; ki++ {
			// Output rows oy0..oy1-1 read input rows inside the image.
			oy0, oy1 := 0, oh
			if pad > ki {
				oy0 = min(oh, (pad-ki+1)/2)
			}
			if last := h - 1 + pad - ki; last < 0 {
				oy1 = 0
			} else {
				oy1 = min(oh, last/2+1)
			}
			oy1 = max(oy1, oy0)
			for kj := 0; kj < kw; kj++ {
				rows := col[((ci*kh+ki)*kw+kj)*ldCol:]
				// Output column ox reads input column ix0 + 2·ox: in the half of ix0's parity, at
				// ox + ⌊ix0/2⌋.
				ix0 := kj - pad
				lo, hi := 0, ow
				if ix0 < 0 {
					lo = min(ow, (-ix0+1)/2)
				}
				if last := w - 1 - ix0; last < 0 {
					hi = 0
				} else {
					hi = min(ow, last/2+1)
				}
				hi = max(hi, lo)
				if !back {
					clear(rows[:oy0*ow])
					clear(rows[oy1*ow : oh*ow])
				}
				if hi == lo {
					if !back {
						clear(rows[oy0*ow : oy1*ow])
					}
					continue
				}
				half, q := 0, ix0>>1 // arithmetic shift: ⌊ix0/2⌋ for negative ix0 too
				if ix0&1 != 0 {
					half = we
				}
				base := (2*oy0-pad+ki)*w + half + lo + q
				for oy := oy0; oy < oy1; oy, base = oy+1, base+2*w {
					dst := rows[oy*ow : (oy+1)*ow : (oy+1)*ow]
					s := plane[base : base+hi-lo]
					d := dst[lo:hi]
					if back {
						for i, v := range d {
							s[i] += v
						}
						continue
					}
					for i := range dst[:lo] {
						dst[i] = 0
					}
					//lint:ignore S1001 rows are short (image width): an inline loop beats the call of memmove
					for i, v := range s {
						d[i] = v
					}
					for i := hi; i < ow; i++ {
						dst[i] = 0
					}
				}
			}
		}
	}
	if back {
		for r := 0; r < ch*h; r++ {
			row, in := x[r*w:(r+1)*w], split[r*w:(r+1)*w]
			ev, od := in[:we], in[we:]
			for j := range od {
				row[2*j] += ev[j]
				row[2*j+1] += od[j]
			}
			if w%2 == 1 {
				row[w-1] += ev[we-1]
			}
		}
	}
}

// im2colRows is im2col (or, with back, its accumulating inverse) one output row at a time.
func im2colRows[T float](col []T, ldCol int, x []T, ch, h, w, kh, kw, stride, pad, oh, ow int, back bool) {
	for ci := 0; ci < ch; ci++ {
		plane := x[ci*h*w : (ci+1)*h*w]
		for ki := 0; ki < kh; ki++ {
			// Output rows oy0..oy1-1 read input rows inside the image.
			oy0, oy1 := 0, oh
			if pad > ki {
				oy0 = min(oh, (pad-ki+stride-1)/stride)
			}
			if last := h - 1 + pad - ki; last < 0 {
				oy1 = 0
			} else {
				oy1 = min(oh, last/stride+1)
			}
			oy1 = max(oy1, oy0)
			for kj := 0; kj < kw; kj++ {
				rows := col[((ci*kh+ki)*kw+kj)*ldCol:]
				// The valid part of an output row is ox in [lo, hi), reading the input at
				// ix0 + ox·stride.
				ix0 := kj - pad
				lo, hi := 0, ow
				if ix0 < 0 {
					lo = min(ow, (-ix0+stride-1)/stride)
				}
				if last := w - 1 - ix0; last < 0 {
					hi = 0
				} else {
					hi = min(ow, last/stride+1)
				}
				hi = max(hi, lo)
				if !back {
					clear(rows[:oy0*ow])
					clear(rows[oy1*ow : oh*ow])
				}
				if hi == lo {
					if !back {
						clear(rows[oy0*ow : oy1*ow])
					}
					continue
				}
				n := hi - lo
				base := (oy0*stride-pad+ki)*w + ix0 + lo*stride
				for oy := oy0; oy < oy1; oy, base = oy+1, base+stride*w {
					dst := rows[oy*ow : (oy+1)*ow : (oy+1)*ow]
					d := dst[lo:hi]
					switch {
					case back && stride == 1:
						s := plane[base : base+n]
						for i, v := range d {
							s[i] += v
						}
					case back:
						s := plane[base : base+(n-1)*stride+1]
						for i, v := range d {
							s[i*stride] += v
						}
					default:
						// Rows are short (image width): inline loops beat the calls of memmove
						// and memclr.
						for i := range dst[:lo] {
							dst[i] = 0
						}
						if stride == 1 {
							s := plane[base : base+n]
							//lint:ignore S1001 rows are short (image width): an inline loop beats the call of memmove
							for i, v := range s {
								d[i] = v
							}
						} else {
							s := plane[base : base+(n-1)*stride+1]
							for i := range d {
								d[i] = s[i*stride]
							}
						}
						for i := hi; i < ow; i++ {
							dst[i] = 0
						}
					}
				}
			}
		}
	}
}

// im2colSameWidth is im2col for stride 1 when the output is as wide as the input ("same"
// padding along x): each column row is then the input plane shifted by a constant, so the valid
// rows go over in one copy and only the padding columns and rows are zeroed afterwards.
func im2colSameWidth[T float](col []T, ldCol int, x []T, ch, h, w, kh, kw, pad, oh int) {
	l := oh * w
	for ci := 0; ci < ch; ci++ {
		plane := x[ci*h*w : (ci+1)*h*w]
		for ki := 0; ki < kh; ki++ {
			// Output rows oy0..oy1-1 read input rows inside the image.
			oy0, oy1 := max(0, pad-ki), min(oh, h+pad-ki)
			for kj := 0; kj < kw; kj++ {
				r := ((ci*kh+ki)*kw + kj) * ldCol
				dst := col[r : r+l]
				ix0 := kj - pad
				lo, hi := max(0, -ix0), min(w, w-ix0)
				if oy0 >= oy1 || lo >= hi {
					clear(dst)
					continue
				}
				a, b := oy0*w+lo, (oy1-1)*w+hi
				shift := (ki-pad)*w + ix0
				copy(dst[a:b], plane[a+shift:b+shift])
				clear(dst[:oy0*w+lo])
				clear(dst[(oy1-1)*w+hi:])
				// The margins are a column or two: stores in line beat a clear call per row.
				for oy := oy0; oy < oy1; oy++ {
					row := dst[oy*w : (oy+1)*w]
					for i := range lo {
						row[i] = 0
					}
					for i := hi; i < w; i++ {
						row[i] = 0
					}
				}
			}
		}
	}
}

// MaxPool2d implements backend.Backend.
func (c *CPU) MaxPool2d(y, arg, x *backend.Buffer, planes, h, w, k, stride, oh, ow int) {
	if x.DType == backend.F64 {
		maxPool(y.F64, arg.I64, x.F64, planes, h, w, k, stride, oh, ow)
		return
	}
	maxPool(y.F32, arg.I64, x.F32, planes, h, w, k, stride, oh, ow)
}

func maxPool[T float](y []T, arg []int64, x []T, planes, h, w, k, stride, oh, ow int) {
	parallelFor(planes, planes*oh*ow*k*k, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			plane := x[p*h*w : (p+1)*h*w]
			for oy := 0; oy < oh; oy++ {
				for ox := 0; ox < ow; ox++ {
					bi := (oy*stride)*w + ox*stride
					best := plane[bi]
					for ki := 0; ki < k; ki++ {
						for kj := 0; kj < k; kj++ {
							i := (oy*stride+ki)*w + ox*stride + kj
							if v := plane[i]; v > best || v != v {
								best, bi = v, i
							}
						}
					}
					o := (p*oh+oy)*ow + ox
					y[o], arg[o] = best, int64(bi)
				}
			}
		}
	})
}

// MaxPool2dGrad implements backend.Backend.
func (c *CPU) MaxPool2dGrad(dx, gy, arg *backend.Buffer, planes, h, w, _, _, oh, ow int) {
	if dx.DType == backend.F64 {
		maxPoolGrad(dx.F64, gy.F64, arg.I64, planes, h, w, oh, ow)
		return
	}
	maxPoolGrad(dx.F32, gy.F32, arg.I64, planes, h, w, oh, ow)
}

func maxPoolGrad[T float](dx, gy []T, arg []int64, planes, h, w, oh, ow int) {
	for p := 0; p < planes; p++ {
		for i := 0; i < oh*ow; i++ {
			o := p*oh*ow + i
			dx[p*h*w+int(arg[o])] += gy[o]
		}
	}
}
